import type { MouseEvent } from "react";

export const mainContentId = "main-content";

/**
 * "Skip to main content" for keyboard users. The app routes on the URL hash, so a plain `#main-content` link
 * would navigate to an unknown route; the click moves focus instead and leaves the hash alone.
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const main = document.getElementById(mainContentId);
    main?.focus();
    main?.scrollIntoView();
  };
  return (
    <a className="vigil-skip-link" href={`#${mainContentId}`} onClick={skip}>
      Skip to main content
    </a>
  );
}
