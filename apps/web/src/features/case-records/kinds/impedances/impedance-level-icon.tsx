import CheckCircle from "@mui/icons-material/CheckCircle";
import ErrorIcon from "@mui/icons-material/Error";
import Warning from "@mui/icons-material/Warning";
import type { SvgIconProps } from "@mui/material/SvgIcon";
import { type ImpedanceLevel, impedanceLevelColors } from "./impedance-levels";

const icons = { good: CheckCircle, caution: Warning, flagged: ErrorIcon } as const;

/** A shape per level (tick, triangle, disc), so the level is not told by colour alone; the word goes beside it. */
export function ImpedanceLevelIcon({ level, ...props }: { level: ImpedanceLevel } & SvgIconProps) {
  const Icon = icons[level];
  return <Icon aria-hidden="true" color={impedanceLevelColors[level]} fontSize="small" {...props} />;
}
