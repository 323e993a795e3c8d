import { Input } from '@mantine/core';
import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type Ref,
} from 'react';
import classes from './edifact-editor.module.css';

/** Row height and top padding of the text, in pixels (kept equal to the CSS module). */
const LINE_HEIGHT = 20;
const PADDING_TOP = 8;
const PADDING_INLINE = 10;

export type EdifactEditorHandle = {
  /** Scrolls the text so that the line (1-based) is in view, and the column when the line is long. */
  revealLine: (line: number, column?: number) => void;
  focus: () => void;
};

export type EdifactEditorProps = {
  id: string;
  value: string;
  onChange: (value: string) => void;
  label: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
  placeholder?: string;
  /** The line shown highlighted (1-based), e.g. of the finding chosen in the result list. */
  highlightLine?: number | undefined;
  ref?: Ref<EdifactEditorHandle>;
};

function countLines(text: string): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

/**
 * A large, resizable, monospace paste area with line numbers. Only the numbers in view are drawn, so a 10 MB
 * document with many lines stays smooth. EDIFACT is written left to right in every language of the interface.
 */
export function EdifactEditor({
  id,
  value,
  onChange,
  label,
  description,
  error,
  placeholder,
  highlightLine,
  ref,
}: EdifactEditorProps) {
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewportHeight, setViewportHeight] = useState(24 * 16);
  const lineCount = useMemo(() => countLines(value), [value]);

  useEffect(() => {
    const textarea = textareaRef.current;
    if (!textarea || typeof ResizeObserver === 'undefined') return;
    // The user can resize the area: draw as many numbers as fit.
    const observer = new ResizeObserver(() => setViewportHeight(textarea.clientHeight || 24 * 16));
    observer.observe(textarea);
    return () => observer.disconnect();
  }, []);

  const measureCharWidth = useCallback((): number => {
    const textarea = textareaRef.current;
    if (!textarea) return 8;
    const canvas = document.createElement('canvas');
    const context = typeof canvas.getContext === 'function' ? canvas.getContext('2d') : null;
    if (!context) return 8;
    context.font = getComputedStyle(textarea).font;
    return context.measureText('0000000000').width / 10 || 8;
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      revealLine(line, column) {
        const textarea = textareaRef.current;
        if (!textarea) return;
        const top = (line - 1) * LINE_HEIGHT;
        textarea.scrollTop = Math.max(0, top - Math.floor(textarea.clientHeight / 3));
        if (column !== undefined) {
          const left = (column - 1) * measureCharWidth() + PADDING_INLINE;
          const visible = left >= textarea.scrollLeft && left <= textarea.scrollLeft + textarea.clientWidth - 40;
          if (!visible) textarea.scrollLeft = Math.max(0, left - textarea.clientWidth / 2);
        }
        setScrollTop(textarea.scrollTop);
        textarea.closest('[data-editor-frame]')?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
      },
      focus() {
        textareaRef.current?.focus();
      },
    }),
    [measureCharWidth],
  );

  const first = Math.max(1, Math.floor((scrollTop - PADDING_TOP) / LINE_HEIGHT) + 1);
  const last = Math.min(lineCount, first + Math.ceil(viewportHeight / LINE_HEIGHT) + 1);
  const numbers: number[] = [];
  for (let n = first; n <= last; n++) numbers.push(n);
  const gutterWidth = `calc(${String(Math.max(2, String(lineCount).length))}ch + 16px)`;
  const rowTop = (line: number) => PADDING_TOP + (line - 1) * LINE_HEIGHT - scrollTop;
  const descriptionId = description ? `${id}-description` : undefined;
  const errorId = error ? `${id}-error` : undefined;

  return (
    <Input.Wrapper
      id={id}
      label={label}
      description={description}
      error={error}
      descriptionProps={{ id: descriptionId }}
      errorProps={{ id: errorId }}
      size="md"
      // Mantine's dimmed grey is below 4.5:1 on white; the subtitle must stay readable.
      styles={{ description: { color: 'var(--mantine-color-gray-7)' } }}
    >
      <div
        className={classes.frame}
        dir="ltr"
        data-editor-frame
        data-error={error ? true : undefined}
        data-highlight-line={highlightLine}
        style={{ marginTop: 'var(--mantine-spacing-xs)' }}
      >
        <div className={classes.gutter} style={{ width: gutterWidth }} aria-hidden data-testid="line-gutter">
          {numbers.map((n) => (
            <div
              key={n}
              className={classes.number}
              style={{ top: rowTop(n) }}
              data-active={n === highlightLine ? true : undefined}
            >
              {n}
            </div>
          ))}
        </div>
        <div className={classes.body}>
          {highlightLine !== undefined && highlightLine <= lineCount && (
            <div
              className={classes.highlight}
              style={{ top: rowTop(highlightLine) }}
              data-testid="line-highlight"
              data-line={highlightLine}
            />
          )}
          <textarea
            ref={textareaRef}
            id={id}
            className={classes.textarea}
            value={value}
            placeholder={placeholder}
            wrap="off"
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            autoCorrect="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={[descriptionId, errorId].filter(Boolean).join(' ') || undefined}
            onChange={(event) => onChange(event.currentTarget.value)}
            onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
          />
        </div>
      </div>
    </Input.Wrapper>
  );
}
