// A SQL field: CodeMirror 6 with the dialect's highlighting, labelled for
// assistive technology. CodeMirror writes its styles at run time; in a
// document it would add a <style> element, which the console's CSP
// (style-src 'self') refuses, so the field lives in a shadow root, where
// they go into a constructed style sheet instead (decision 0113).
import { Compartment, EditorSelection, type Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { type Ref, useEffect, useImperativeHandle, useRef } from "react";
import { fieldExtensions } from "./editor-extensions.ts";
import { runnableText, type SqlDialect } from "./statement-at.ts";

export interface SqlEditorHandle {
  /** The selection, else the statement under the cursor (or the last one before it). */
  runnable(): string;
  /** Replaces the whole text, the cursor at its end, and focuses the field. */
  setText(text: string): void;
  focus(): void;
}

interface SqlEditorFieldProps {
  label: string;
  dialect: SqlDialect;
  initialText?: string;
  readOnly?: boolean;
  placeholder?: string;
  onChange?: (text: string) => void;
  /** Ctrl/Cmd+Enter. */
  onRun?: () => void;
  handle?: Ref<SqlEditorHandle>;
  /** A page's own additions (completion, marks), swapped in place when they change. */
  extensions?: Extension;
}

export function SqlEditorField({ label, dialect, initialText = "", readOnly = false, placeholder = "", onChange, onRun, handle, extensions = [] }: SqlEditorFieldProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView>(undefined);
  // What a rebuild carries over besides the text: the cursor, and the focus of someone typing.
  const carried = useRef<{ selection?: EditorSelection; focused: boolean }>({ focused: false });
  const added = useRef(new Compartment());
  const addedNow = useRef(extensions);
  addedNow.current = extensions;
  // The latest callbacks, read at each key press, so the editor need not be rebuilt for them.
  const callbacks = useRef({ onChange, onRun });
  callbacks.current = { onChange, onRun };

  useEffect(() => {
    const host = hostRef.current!;
    const root = host.shadowRoot ?? host.attachShadow({ mode: "open" });
    const view = new EditorView({
      root,
      parent: root,
      doc: viewRef.current?.state.doc.toString() ?? initialText,
      selection: carried.current.selection,
      extensions: [
        fieldExtensions({
          label,
          dialect,
          readOnly,
          placeholder,
          onRun: onRun ? () => callbacks.current.onRun?.() : undefined,
          onChange: (text) => callbacks.current.onChange?.(text),
        }),
        added.current.of(addedNow.current),
      ],
    });
    viewRef.current = view;
    if (carried.current.focused) view.focus();
    return () => {
      carried.current = { selection: view.state.selection, focused: view.hasFocus };
      view.destroy();
    };
    // Rebuilt only when what the extensions hold changes (the dialect, once a database is chosen); the text, cursor and focus carry over.
  }, [label, dialect, readOnly, placeholder, Boolean(onRun)]);

  useEffect(() => {
    viewRef.current?.dispatch({ effects: added.current.reconfigure(extensions) });
  }, [extensions]);

  useImperativeHandle(handle, () => ({
    runnable: () => {
      const view = viewRef.current;
      if (!view) return "";
      return runnableText(view.state.doc.toString(), view.state.selection.main, dialect);
    },
    setText: (text) => {
      const view = viewRef.current;
      if (!view) return;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: EditorSelection.cursor(text.length) });
      view.focus();
    },
    focus: () => viewRef.current?.focus(),
  }), [dialect]);

  return (
    <div className="sql-editor-field">
      {/* The name is the field's aria-label: a <label> cannot point into a shadow root. */}
      <div className="field-label" aria-hidden="true">
        {label}
      </div>
      <div ref={hostRef} />
    </div>
  );
}
