"use client";

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

/** How close to the bottom still counts as "at the bottom" (a line or two of slack). */
const NEAR_BOTTOM_PX = 48;
/** After the person touches the list, growth is theirs (they expanded something), not the stream's. */
const INTERACTION_GRACE_MS = 1000;

const nearBottom = (el: HTMLElement) => el.scrollHeight - el.scrollTop - el.clientHeight <= NEAR_BOTTOM_PX;

/**
 * Keeps a scroll container pinned to its bottom while content streams in,
 * lets go as soon as the person scrolls up, and re-pins when they come back
 * down (or press "Jump to latest").
 *
 * Why not just "scroll on every message": that yanks a reader back down
 * mid-sentence (the most reported chat-UI annoyance). Intent is read from
 * upward wheel / scrollTop decreasing; growth from images loading is followed
 * via a ResizeObserver, except right after the person clicked inside the list
 * (expanding an old step must not scroll it away from under their pointer).
 *
 * `changeKey` should change whenever the content does (e.g. the item list).
 * `follow()` is for the person's own actions that move the conversation on
 * (sending a message, answering a card): the view follows from there, even if
 * they had scrolled up, and the click that answered a card does not count as
 * "touching the list" (else the growth it causes would let go at once).
 */
export function useStickToBottom(changeKey: unknown) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  const lastTop = useRef(0);
  const lastHeight = useRef(0);
  const lastInteraction = useRef(-Infinity);
  const [atBottom, setAtBottom] = useState(true);

  const setStuck = useCallback((value: boolean) => {
    stuck.current = value;
    setAtBottom(value);
  }, []);

  const pin = useCallback(() => {
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const onScroll = () => {
      // scrollTop also falls when content above shrinks (an older step folds as the next one
      // starts, a draft becomes its shorter message): the browser clamps it. That is not the
      // person scrolling up, so it only lets go when the content kept its height; otherwise a
      // pinned list is pinned again. (Their wheel, touch and keys are read on their own, below.)
      const resized = el.scrollHeight !== lastHeight.current;
      if (nearBottom(el)) setStuck(true);
      else if (!resized && el.scrollTop < lastTop.current - 1) setStuck(false);
      else if (resized && stuck.current) pin();
      lastTop.current = el.scrollTop;
      lastHeight.current = el.scrollHeight;
    };
    // Wheel intent arrives before the scroll it causes, so an upward flick wins
    // even when a message lands in the same frame.
    const onWheel = (e: WheelEvent) => {
      if (e.deltaY < 0 && el.scrollTop > 0) setStuck(false);
    };
    const onInteract = () => {
      lastInteraction.current = performance.now();
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    el.addEventListener("wheel", onWheel, { passive: true });
    el.addEventListener("pointerdown", onInteract, { passive: true });
    el.addEventListener("touchstart", onInteract, { passive: true });
    el.addEventListener("keydown", onInteract);
    return () => {
      el.removeEventListener("scroll", onScroll);
      el.removeEventListener("wheel", onWheel);
      el.removeEventListener("pointerdown", onInteract);
      el.removeEventListener("touchstart", onInteract);
      el.removeEventListener("keydown", onInteract);
    };
  }, [pin, setStuck]);

  useEffect(() => {
    const el = scrollRef.current;
    const content = contentRef.current;
    if (!el || !content || typeof ResizeObserver === "undefined") return;
    const ro = new ResizeObserver(() => {
      if (!stuck.current) return;
      if (performance.now() - lastInteraction.current < INTERACTION_GRACE_MS) {
        if (!nearBottom(el)) setStuck(false);
        return;
      }
      pin();
    });
    ro.observe(content);
    ro.observe(el);
    return () => ro.disconnect();
  }, [pin, setStuck]);

  // New content: follow before paint, so a pinned list never flashes upward.
  useLayoutEffect(() => {
    if (stuck.current) pin();
  }, [changeKey, pin]);

  const follow = useCallback(() => {
    lastInteraction.current = -Infinity;
    setStuck(true);
    pin();
  }, [pin, setStuck]);

  const jumpToLatest = useCallback(() => {
    const el = scrollRef.current;
    setStuck(true);
    el?.scrollTo({ top: el.scrollHeight, behavior: window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
  }, [setStuck]);

  return { scrollRef, contentRef, atBottom, jumpToLatest, follow };
}
