import com.sun.source.util.JavacTask;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The language fuzz's Java oracle (test/unit/fuzz/compilerOracles.ts): javac's own parser over many files in one JVM.
 * A parse, not a full compile: the corpus files use Android classes no classpath here has. Reads the list of files
 * from the file named by the first argument; prints one line per error: path, tab, line, tab, javac's message. Every
 * error: javac's default stops reporting after 100, which let files of a large batch pass unchecked.
 */
public class ParseCheck {
  public static void main(String[] args) throws Exception {
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    List<String> files = Files.readAllLines(Paths.get(args[0]), StandardCharsets.UTF_8);
    StandardJavaFileManager manager = compiler.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
    int batch = 500;
    for (int start = 0; start < files.size(); start += batch) {
      List<String> part = files.subList(start, Math.min(files.size(), start + batch));
      DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
      JavacTask task =
          (JavacTask)
              compiler.getTask(
                  null,
                  manager,
                  diagnostics,
                  List.of("-proc:none", "-Xlint:none", "-encoding", "UTF-8", "-Xmaxerrs", "1000000"),
                  null,
                  manager.getJavaFileObjectsFromStrings(part));
      task.parse();
      for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
        if (d.getKind() != Diagnostic.Kind.ERROR || d.getSource() == null) continue;
        String message = d.getMessage(Locale.ROOT).split("\n")[0];
        System.out.println(d.getSource().getName() + "\t" + d.getLineNumber() + "\t" + message);
      }
    }
  }
}
