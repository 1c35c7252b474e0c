import { useEffect, useRef, useState } from "react";

/** Typing pauses this long before the log is asked for again. */
export const typingDelayMs = 300;

/**
 * A text filter's field: what is typed reaches the URL (and the server) after a short pause, not on every key;
 * when the URL changes from outside (Back, a link, a removed chip), the field shows what it says.
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
