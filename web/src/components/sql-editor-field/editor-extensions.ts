// CodeMirror's setup for SQL fields: the dialect's highlighting, line
// numbers, undo history, bracket matching, and colours from the console's
// tokens (custom properties reach into the field's shadow root, so both
// themes follow). Tab is left to move focus, so the field is no keyboard trap.
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { bracketMatching, HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { MySQL, PostgreSQL, sql } from "@codemirror/lang-sql";
import type { Extension } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers, placeholder } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import type { SqlDialect } from "./statement-at.ts";

export interface FieldOptions {
  label: string;
  dialect: SqlDialect;
  readOnly: boolean;
  placeholder: string;
  /** Mod-Enter (Ctrl or Cmd + Enter); undefined leaves the key alone. */
  onRun: (() => void) | undefined;
  onChange: (text: string) => void;
}

export function fieldExtensions(options: FieldOptions): Extension[] {
  const runKey = options.onRun ? [{ key: "Mod-Enter", run: () => (options.onRun?.(), true) }] : [];
  return [
    lineNumbers(),
    history(),
    drawSelection(),
    highlightActiveLine(),
    bracketMatching(),
    sql({ dialect: options.dialect === "mysql" ? MySQL : PostgreSQL }),
    syntaxHighlighting(highlight),
    keymap.of([...runKey, ...defaultKeymap, ...historyKeymap]),
    EditorView.contentAttributes.of({ "aria-label": options.label, ...(options.onRun ? { "aria-keyshortcuts": "Control+Enter Meta+Enter" } : {}) }),
    EditorView.editable.of(!options.readOnly),
    EditorView.lineWrapping,
    placeholder(options.placeholder),
    EditorView.updateListener.of((update) => update.docChanged && options.onChange(update.state.doc.toString())),
    theme,
  ];
}

const theme = EditorView.theme({
  "&": {
    color: "var(--text)",
    backgroundColor: "var(--surface)",
    border: "1px solid var(--border)",
    borderRadius: "var(--radius)",
    fontSize: "0.9rem",
    minHeight: "var(--sql-field-min-height, 8rem)",
    maxHeight: "var(--sql-field-max-height, 24rem)",
  },
  "&.cm-focused": { outline: "3px solid var(--focus)", outlineOffset: "2px" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.5" },
  ".cm-content": { caretColor: "var(--text)" },
  ".cm-cursor": { borderLeftColor: "var(--text)" },
  ".cm-gutters": { backgroundColor: "var(--surface-2)", color: "var(--muted)", borderRight: "1px solid var(--border)" },
  ".cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--accent) 7%, transparent)" },
  ".cm-activeLineGutter": { backgroundColor: "transparent", color: "var(--text)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground": {
    backgroundColor: "color-mix(in srgb, var(--accent) 30%, transparent)",
  },
  ".cm-matchingBracket": { backgroundColor: "color-mix(in srgb, var(--accent) 25%, transparent)", outline: "none" },
  ".cm-placeholder": { color: "var(--muted)" },
});

const highlight = HighlightStyle.define([
  { tag: tags.keyword, color: "light-dark(#7a1fa2, #d7a6ff)", fontWeight: "600" },
  { tag: [tags.string, tags.special(tags.string)], color: "light-dark(#0b6e2f, #8fe3a8)" },
  { tag: [tags.number, tags.bool, tags.null], color: "light-dark(#9a4b00, #ffc078)" },
  { tag: [tags.lineComment, tags.blockComment], color: "var(--muted)", fontStyle: "italic" },
  { tag: [tags.typeName, tags.standard(tags.name)], color: "light-dark(#1c5fa8, #8cc4ff)" },
  { tag: tags.operator, color: "var(--text)" },
]);
