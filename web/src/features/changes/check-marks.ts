// Plan check results in the SQL field, at the line and column they point at
// (contract §10.2: 1-based positions, when the check knows them): the word
// there is underlined and its line tinted by severity, and the message is
// the mark's title. The list under the field says the same in words.
import { type Extension, RangeSetBuilder, type Text } from "@codemirror/state";
import { Decoration, EditorView } from "@codemirror/view";

export type MarkSeverity = "error" | "warning";

export interface CheckMark {
  line: number;
  column: number;
  severity: MarkSeverity;
  message: string;
}

/** Where a mark falls in `doc`: from its position to the end of the word there (at least one character), on an existing line. */
export function markRange(doc: Text, mark: Pick<CheckMark, "line" | "column">): { line: number; from: number; to: number } | undefined {
  if (mark.line < 1 || mark.line > doc.lines) return undefined;
  const line = doc.line(mark.line);
  const from = Math.min(line.from + Math.max(mark.column, 1) - 1, line.to);
  const word = /^[^\s;,()]*/.exec(line.text.slice(from - line.from))?.[0].length ?? 0;
  return { line: line.from, from, to: Math.min(from + Math.max(word, 1), line.to) };
}

export function checkMarks(marks: readonly CheckMark[]): Extension {
  if (marks.length === 0) return [];
  return [
    EditorView.decorations.of((view) => {
      const placed = marks
        .map((mark) => ({ mark, range: markRange(view.state.doc, mark) }))
        .filter((p): p is { mark: CheckMark; range: NonNullable<ReturnType<typeof markRange>> } => p.range !== undefined)
        .sort((a, b) => a.range.line - b.range.line || a.range.from - b.range.from);
      const builder = new RangeSetBuilder<Decoration>();
      const lines = new Set<number>();
      for (const { mark, range } of placed) {
        if (!lines.has(range.line)) {
          lines.add(range.line);
          builder.add(range.line, range.line, Decoration.line({ class: `cm-check-line-${mark.severity}` }));
        }
        if (range.to > range.from) builder.add(range.from, range.to, Decoration.mark({ class: `cm-check-${mark.severity}`, attributes: { title: mark.message } }));
      }
      return builder.finish();
    }),
    markTheme,
  ];
}

const markTheme = EditorView.baseTheme({
  ".cm-check-error": { textDecoration: "underline wavy var(--error-text)" },
  ".cm-check-warning": { textDecoration: "underline wavy light-dark(#9a6700, #e3b341)" },
  ".cm-check-line-error": { backgroundColor: "color-mix(in srgb, var(--error-text) 10%, transparent)" },
  ".cm-check-line-warning": { backgroundColor: "var(--warning-bg)" },
});
