process.stdout.write('scalpel\n');
