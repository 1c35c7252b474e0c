import { useEffect, useRef, useState } from "react";

/** How long typing pauses before a text filter is sent. */
export const typingDelayMs = 300;

/**
 * A text filter held in the URL: what is typed reaches the URL (and so the server) after a short pause, not on
 * every key; when the URL changes from outside (Back, a link, "Clear filters", a removed chip), the field shows
 * what the URL says.
 */
export function useDebouncedText(urlValue: string, onSettled: (value: string) => void) {
  const [text, setText] = useState(urlValue);
  const lastSent = useRef(urlValue);
  const settle = useRef(onSettled);
  settle.current = onSettled;

  useEffect(() => {
    if (urlValue !== lastSent.current) {
      lastSent.current = urlValue;
      setText(urlValue);
    }
  }, [urlValue]);

  useEffect(() => {
    if (text === lastSent.current) return;
    const timer = setTimeout(() => {
      lastSent.current = text;
      settle.current(text);
    }, typingDelayMs);
    return () => clearTimeout(timer);
  }, [text]);

  return [text, setText] as const;
}
