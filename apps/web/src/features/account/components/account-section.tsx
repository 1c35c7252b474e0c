import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { type ReactNode, useId } from "react";

/** One part of the account page: a titled region, so assistive technology can jump between them. */
export function AccountSection({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id={headingId} variant="h6" component="h2">
        {title}
      </Typography>
      {description ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {description}
        </Typography>
      ) : null}
      {children}
    </Paper>
  );
}
