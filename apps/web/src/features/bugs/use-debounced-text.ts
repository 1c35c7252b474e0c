import { useEffect, useRef, useState } from "react";

const settleDelayMs = 300;

/**
 * A text filter held in the URL: what is typed reaches the URL (and the server) after a short pause, not on
 * every key; when Back or a link changes the URL, the box shows what the URL says.
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
    }, settleDelayMs);
    return () => clearTimeout(timer);
  }, [text]);

  return [text, setText] as const;
}
