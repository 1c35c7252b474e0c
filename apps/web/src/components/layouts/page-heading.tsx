import Typography from "@mui/material/Typography";
import { type ReactNode, useEffect, useRef } from "react";
import { arrivalFocusPending } from "./arrival-focus";

/** The page's single h1; right after sign-in it takes the focus (see arrival-focus.ts). */
export function PageHeading({ children }: { children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (arrivalFocusPending({ consume: true })) heading.current?.focus();
  }, []);
  return (
    <Typography ref={heading} variant="h4" component="h1" tabIndex={-1} gutterBottom sx={{ outline: "none" }}>
      {children}
    </Typography>
  );
}
