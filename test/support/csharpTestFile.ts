/**
 * A C# xUnit test file the way big ones are written: one test class in a block namespace, `count` test methods of
 * about 24 lines each (73 make about 1,780 lines, the size of the file issue 26 saw planning hide). Generated, so
 * tests can size it to the budget they exercise.
 */
export function csharpTestFile(count: number): string {
  const tests = Array.from({ length: count }, (_, i) =>
    [
      '        [Fact]',
      `        public void Parse_Case${i}_ReturnsTheExpectedWidget()`,
      '        {',
      `            var input = "widget-${i}";`,
      '            var parser = new WidgetParser(new WidgetOptions { Strict = true, Culture = "en-US" });',
      '',
      '            var result = parser.Parse(input);',
      '',
      '            Assert.NotNull(result);',
      `            Assert.Equal("widget-${i}", result.Name);`,
      `            Assert.Equal(${i}, result.Index);`,
      '            Assert.True(result.IsValid);',
      '            Assert.Empty(result.Errors);',
      '            foreach (var part in result.Parts)',
      '            {',
      '                Assert.False(string.IsNullOrWhiteSpace(part.Label));',
      '                Assert.InRange(part.Weight, 0, 100);',
      '            }',
      '            Assert.Equal(result.Parts.Count, result.Weights.Count);',
      `            Assert.Contains(result.Tags, tag => tag == "case-${i}");`,
      '            Assert.DoesNotContain(result.Tags, tag => tag.Length == 0);',
      '        }',
      '',
    ].join('\n'),
  );
  return [
    'using System;',
    'using System.Linq;',
    'using Xunit;',
    '',
    'namespace Acme.Widgets.Tests',
    '{',
    '    public class WidgetParserTests',
    '    {',
    '        private readonly WidgetParser _parser = new WidgetParser(new WidgetOptions());',
    '',
    ...tests,
    '    }',
    '}',
    '',
  ].join('\n');
}
