import { Alert, Code, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FocusEvent, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { DocumentCodes, DocumentListItem } from '@portal/contracts';
import { useSession } from '../../../app/session/session-context.tsx';
import { PageLoader } from '../../../components/page-loader.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { originalQuery } from '../api/document-files.ts';

/** Past this many segments the original is shown as plain text, without a named element each (it stays fast). */
const NAMED_SEGMENTS_MAX = 3000;

type Delimiters = { component: string; element: string; release: string; terminator: string };

/** The delimiters of an interchange: its UNA, else ISO 9735's defaults. */
export function delimitersOf(text: string): Delimiters {
  const una = text.startsWith('UNA') ? text.slice(3, 9) : undefined;
  return {
    component: una?.[0] ?? ':',
    element: una?.[1] ?? '+',
    release: una?.[3] ?? '?',
    terminator: una?.[5] ?? "'",
  };
}

/** The original as received, one segment a line (a segment ends at its terminator, `'` unless UNA says otherwise). */
export function splitSegments(text: string): string[] {
  const una = text.startsWith('UNA') ? text.slice(3, 9) : undefined;
  const { release, terminator } = delimitersOf(text);
  const segments: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (una && i < 9) {
      current += c;
      if (i === 8) {
        segments.push(current);
        current = '';
      }
      continue;
    }
    if (c === release && i + 1 < text.length) {
      current += c + text[i + 1];
      i += 1;
      continue;
    }
    if (c === '\r' || c === '\n') continue;
    current += c;
    if (c === terminator) {
      segments.push(current);
      current = '';
    }
  }
  if (current.trim()) segments.push(current);
  return segments;
}

/** A piece of a segment line: its tag, a delimiter, or the value of element `element` (component `component`). */
export type SegmentPiece =
  | { kind: 'tag'; text: string }
  | { kind: 'delimiter'; text: string }
  | { kind: 'value'; text: string; element: number; component: number };

/** Cuts one segment into its tag, delimiters and values (a released delimiter stays in its value). */
export function segmentPieces(segment: string, d: Delimiters): SegmentPiece[] {
  const pieces: SegmentPiece[] = [];
  let element = 0;
  let component = 0;
  let value = '';
  const flush = () => {
    if (!value) return;
    pieces.push(element === 0 ? { kind: 'tag', text: value } : { kind: 'value', text: value, element, component });
    value = '';
  };
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === d.release && i + 1 < segment.length) {
      value += c + segment[i + 1];
      i++;
    } else if (c === d.element || c === d.component || c === d.terminator) {
      flush();
      pieces.push({ kind: 'delimiter', text: c });
      if (c === d.element) {
        element++;
        component = 0;
      } else if (c === d.component) component++;
    } else value += c;
  }
  flush();
  return pieces;
}

/**
 * An XML original (a KSeF FA(3) invoice) one element a line, indented by depth; an element holding only text stays on
 * its line with it. An XML already laid out over lines is shown as it is, and so is one this simple reading cannot
 * follow (a comment or CDATA holding `>`, tags that do not nest): only the layout changes, never the text.
 */
export function prettyXml(xml: string): string {
  const text = xml.trim();
  if (/>\s*\n\s*</.test(text)) return text;
  const tokens = text.split(/(<[^>]*>)/).filter((token) => token.trim() !== '');
  const lines: string[] = [];
  let depth = 0;
  const indent = () => '  '.repeat(depth);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.startsWith('</')) {
      depth -= 1;
      if (depth < 0) return text;
      lines.push(indent() + token);
    } else if (token.startsWith('<?') || token.startsWith('<!') || token.endsWith('/>') || !token.startsWith('<')) {
      lines.push(indent() + token.trim());
    } else {
      const inner = tokens[i + 1];
      const close = tokens[i + 2];
      if (inner !== undefined && !inner.startsWith('<') && close?.startsWith('</')) {
        lines.push(indent() + token + inner + close);
        i += 2;
      } else {
        lines.push(indent() + token);
        depth += 1;
      }
    }
  }
  return depth === 0 ? lines.join('\n') : text;
}

type Described = { key: string; name: string };

/** The names of a segment's pieces: the segment's for its tag, the element's or component's for a value. */
function describe(
  t: TFunction<'documents'>,
  segments: DocumentCodes['segments'] | undefined,
  tag: string,
  piece: SegmentPiece,
): Described | undefined {
  const def = segments?.[tag];
  if (!def) return undefined;
  if (piece.kind === 'tag') return { key: tag, name: `${tag} · ${def.name}` };
  if (piece.kind !== 'value') return undefined;
  const element = def.elements[piece.element - 1];
  if (!element) return undefined;
  const position = `${tag}${String(piece.element).padStart(2, '0')}`;
  const component = element.components?.[piece.component];
  if (component) {
    return {
      key: `${position}.${piece.component + 1}`,
      name: `${t('files.element', { position: `${position}.${piece.component + 1}`, id: component.id, name: component.name })} (${element.id} ${element.name})`,
    };
  }
  return { key: position, name: t('files.element', { position, id: element.id, name: element.name }) };
}

/**
 * The original tab. An XML original (standard `ksef`: FA(3)) as XML, one element a line and wrapped; an EDIFACT
 * interchange one segment a line; with the directory imported, every segment tag and element
 * names itself in a tooltip on hover and on keyboard focus (the arrow keys move between them, one tab stop).
 */
export function DocumentOriginal(props: {
  id: string;
  version: string;
  standard: DocumentListItem['standard'];
  codes: DocumentCodes | undefined;
}) {
  const { id, codes } = props;
  const { t } = useTranslation('documents');
  const session = useSession();
  const original = useQuery(originalQuery(session, id));
  const tooltipId = useId();
  const hintId = useId();
  const [active, setActive] = useState<{ name: string; top: number; left: number; index: number } | undefined>();
  const [focusIndex, setFocusIndex] = useState(0);

  if (original.isPending) return <PageLoader />;
  if (original.isError)
    return (
      <Alert color="red" role="alert">
        {errorText(original.error, 'documents')}
      </Alert>
    );

  if (props.standard !== 'edifact') {
    return (
      <Code
        block
        dir="ltr"
        aria-label={t('view.originalXmlLabel')}
        tabIndex={0}
        data-testid="document-original"
        data-format="xml"
        style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: '60vh', overflow: 'auto' }}
      >
        {prettyXml(original.data)}
      </Code>
    );
  }

  const segments = splitSegments(original.data);
  const named = codes !== undefined && codes.directory !== null && segments.length <= NAMED_SEGMENTS_MAX;

  const show = (target: EventTarget) => {
    const el = (target as HTMLElement).closest<HTMLElement>('[data-name]');
    if (!el) return;
    setActive({
      name: el.dataset.name!,
      top: el.offsetTop + el.offsetHeight + 2,
      left: el.offsetLeft,
      index: Number(el.dataset.index),
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLPreElement>) => {
    const items = [...event.currentTarget.querySelectorAll<HTMLElement>('[data-name]')];
    const at = items.indexOf(event.target as HTMLElement);
    if (at < 0) {
      if (event.key === 'Escape') setActive(undefined);
      return;
    }
    const next = {
      ArrowRight: at + 1,
      ArrowDown: at + 1,
      ArrowLeft: at - 1,
      ArrowUp: at - 1,
      Home: 0,
      End: items.length - 1,
    }[event.key];
    if (event.key === 'Escape') setActive(undefined);
    if (next === undefined) return;
    event.preventDefault();
    const target = items[Math.max(0, Math.min(items.length - 1, next))];
    target?.focus();
  };

  let index = 0;
  const lines: ReactNode[] = segments.map((segment, i) => {
    const end = i < segments.length - 1 ? '\n' : '';
    if (!named) return `${segment}${end}`;
    const d = delimitersOf(original.data);
    const pieces = segment.startsWith('UNA') ? [] : segmentPieces(segment, d);
    const tag = pieces[0]?.kind === 'tag' ? pieces[0].text : '';
    return (
      <span key={i}>
        {pieces.length === 0
          ? segment
          : pieces.map((piece, j) => {
              const described = describe(t, codes.segments, tag, piece);
              if (!described) return <span key={j}>{piece.text}</span>;
              const own = index++;
              return (
                <span
                  key={j}
                  data-name={described.name}
                  data-element={described.key}
                  data-index={own}
                  tabIndex={own === focusIndex ? 0 : -1}
                  aria-describedby={active?.index === own ? tooltipId : undefined}
                  onFocus={() => setFocusIndex(own)}
                  style={{ cursor: 'help', textDecoration: 'underline dotted' }}
                >
                  {piece.text}
                </span>
              );
            })}
        {end}
      </span>
    );
  });

  return (
    <Stack gap="xs">
      {codes && codes.directory === null ? (
        <Text size="sm" c="dimmed">
          {t('files.noDirectory', { version: props.version })}
        </Text>
      ) : null}
      {named ? (
        <Text size="sm" c="dimmed" id={hintId}>
          {t('files.originalHint')}
        </Text>
      ) : null}
      <Code
        block
        dir="ltr"
        aria-label={t('view.originalLabel')}
        aria-describedby={named ? hintId : undefined}
        tabIndex={named ? -1 : 0}
        data-testid="document-original"
        style={{ whiteSpace: 'pre', maxHeight: '60vh', overflow: 'auto', position: 'relative' }}
        onMouseOver={(event: MouseEvent) => show(event.target)}
        onMouseLeave={() => setActive(undefined)}
        onFocus={(event: FocusEvent) => show(event.target)}
        onBlur={() => setActive(undefined)}
        onKeyDown={onKeyDown}
      >
        {lines}
        {active ? (
          <span
            id={tooltipId}
            role="tooltip"
            data-testid="element-tooltip"
            style={{
              position: 'absolute',
              top: active.top,
              left: active.left,
              zIndex: 2,
              whiteSpace: 'normal',
              maxWidth: '28rem',
              padding: '4px 8px',
              borderRadius: 4,
              background: 'var(--mantine-color-dark-6)',
              color: 'var(--mantine-color-white)',
              fontSize: 'var(--mantine-font-size-xs)',
              pointerEvents: 'none',
            }}
          >
            {active.name}
          </span>
        ) : null}
      </Code>
    </Stack>
  );
}
