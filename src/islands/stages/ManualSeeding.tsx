import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { Names } from '../../components/stages/view.ts';
import { t } from '../../lib/i18n/index.ts';
import { nameIn } from './sections.ts';
import { dropIndex, moveBy, moveItem } from './seeding.ts';

interface Props {
  order: readonly string[];
  names: Names;
  onChange: (order: string[]) => void;
}

/**
 * Manual seeding (issue 21): the approved participants, seed 1 first, reordered by dragging a row's
 * handle (mouse, pen or finger), or from the keyboard: a focused row moves with Alt+↑ / Alt+↓, and
 * each row has «up» and «down» buttons. Every move is announced.
 */
export function ManualSeeding({ order, names, onChange }: Props) {
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<string | null>(null);
  // The row (or button) to focus once the list has re-rendered after a keyboard move.
  const focus = useRef<{ id: string; part: 'row' | 'up' | 'down' } | null>(null);
  const rows = useRef(new Map<string, HTMLLIElement>());
  const hint = useId();

  // After every render: the row moved from the keyboard keeps the focus in its new place.
  useEffect(() => {
    const wanted = focus.current;
    if (!wanted) return;
    focus.current = null;
    const row = rows.current.get(wanted.id);
    const target = wanted.part === 'row' ? row : row?.querySelector<HTMLButtonElement>(`[data-move="${wanted.part}"]:not(:disabled)`);
    (target ?? row)?.focus();
  });

  const nameOf = (id: string) => nameIn(names, id);
  const announce = (id: string, index: number) => setAnnouncement(t('stageAdmin.seedMoved', { name: nameOf(id), place: index + 1, count: order.length }));

  function move(index: number, delta: -1 | 1, part: 'row' | 'up' | 'down') {
    const moved = moveBy(order, index, delta);
    if (!moved) return;
    const id = order[index]!;
    onChange(moved.list);
    announce(id, moved.index);
    focus.current = { id, part };
  }

  function onKeyDown(event: KeyboardEvent<HTMLLIElement>, index: number) {
    if (event.target !== event.currentTarget || !event.altKey) return;
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    event.preventDefault();
    move(index, event.key === 'ArrowUp' ? -1 : 1, 'row');
  }

  function onPointerDown(event: PointerEvent<HTMLSpanElement>, id: string) {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    setDragging(id);
  }

  function onPointerMove(event: PointerEvent<HTMLSpanElement>, id: string) {
    if (dragging !== id) return;
    const from = order.indexOf(id);
    const boxes = order.map((other) => {
      const box = rows.current.get(other)?.getBoundingClientRect();
      return { top: box?.top ?? 0, height: box?.height ?? 0 };
    });
    const to = dropIndex(boxes, from, event.clientY);
    if (to !== from) onChange(moveItem(order, from, to));
  }

  function onPointerUp(id: string) {
    if (dragging !== id) return;
    setDragging(null);
    announce(id, order.indexOf(id));
  }

  return (
    <div className="flex flex-col gap-2">
      <p id={hint} className="text-xs text-muted">
        {t('stageAdmin.seedHint')}
      </p>
      <ol aria-label={t('stageAdmin.seedList')} aria-describedby={hint} className="flex flex-col gap-1.5">
        {order.map((id, index) => {
          const name = nameOf(id);
          return (
            <li
              key={id}
              ref={(row) => {
                if (row) rows.current.set(id, row);
                else rows.current.delete(id);
              }}
              tabIndex={0}
              aria-label={t('stageAdmin.seedRow', { place: index + 1, name })}
              onKeyDown={(event) => onKeyDown(event, index)}
              className={`flex min-h-12 items-center gap-1.5 rounded-lg border bg-surface-2 px-1 py-1 text-sm sm:gap-2 sm:px-2 ${dragging === id ? 'border-accent shadow-lg' : 'border-line'}`}
            >
              <span
                aria-hidden="true"
                title={t('stageAdmin.dragHandle')}
                onPointerDown={(event) => onPointerDown(event, id)}
                onPointerMove={(event) => onPointerMove(event, id)}
                onPointerUp={() => onPointerUp(id)}
                onPointerCancel={() => onPointerUp(id)}
                className="grid h-10 w-8 shrink-0 cursor-grab touch-none place-items-center rounded-md text-lg text-muted select-none hover:bg-surface active:cursor-grabbing"
              >
                ⠿
              </span>
              <span className="w-6 shrink-0 text-right font-semibold tabular-nums text-muted">{index + 1}</span>
              <span className="min-w-0 flex-1 truncate">{name}</span>
              <button
                type="button"
                data-move="up"
                className="btn-ghost size-10 shrink-0 px-0"
                aria-label={t('stageAdmin.moveUp', { name })}
                disabled={index === 0}
                onClick={() => move(index, -1, 'up')}
              >
                <span aria-hidden="true">↑</span>
              </button>
              <button
                type="button"
                data-move="down"
                className="btn-ghost size-10 shrink-0 px-0"
                aria-label={t('stageAdmin.moveDown', { name })}
                disabled={index === order.length - 1}
                onClick={() => move(index, 1, 'down')}
              >
                <span aria-hidden="true">↓</span>
              </button>
            </li>
          );
        })}
      </ol>
      <p aria-live="assertive" className="sr-only">
        {announcement}
      </p>
    </div>
  );
}
