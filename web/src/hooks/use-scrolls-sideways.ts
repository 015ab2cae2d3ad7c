// Whether an element is wider inside than its box, as a table is on a narrow
// window (it scrolls sideways in its own box). Such a region must be
// reachable by keyboard to be scrolled without a pointer; a table that fits
// stays out of the Tab order.
import { useEffect, useState, type RefObject } from "react";

export function useScrollsSideways(ref: RefObject<HTMLElement | null>): boolean {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth);
    measure();
    // The box follows the window, the content the rows the page renders.
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    const rows = new MutationObserver(measure);
    rows.observe(element, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      rows.disconnect();
    };
  }, [ref]);
  return scrolls;
}
