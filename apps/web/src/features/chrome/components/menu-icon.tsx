import Add from "@mui/icons-material/Add";
import Archive from "@mui/icons-material/Archive";
import AssignmentInd from "@mui/icons-material/AssignmentInd";
import BugReport from "@mui/icons-material/BugReport";
import Business from "@mui/icons-material/Business";
import ChevronRight from "@mui/icons-material/ChevronRight";
import FactCheck from "@mui/icons-material/FactCheck";
import Group from "@mui/icons-material/Group";
import Home from "@mui/icons-material/Home";
import Inbox from "@mui/icons-material/Inbox";
import Insights from "@mui/icons-material/Insights";
import Lan from "@mui/icons-material/Lan";
import MonitorHeart from "@mui/icons-material/MonitorHeart";
import Payments from "@mui/icons-material/Payments";
import Policy from "@mui/icons-material/Policy";
import Preview from "@mui/icons-material/Preview";
import SwapHoriz from "@mui/icons-material/SwapHoriz";
import Timer from "@mui/icons-material/Timer";
import type { SvgIconProps } from "@mui/material/SvgIcon";
import type { ComponentType } from "react";

/**
 * Menu icons arrive as Material icon names (snake_case, as in the contract's menu). Only the names the menu uses
 * are imported, so the bundle does not carry the whole icon set; an unknown name falls back to a chevron.
 */
const icons: Record<string, ComponentType<SvgIconProps>> = {
  add: Add,
  archive: Archive,
  assignment_ind: AssignmentInd,
  bug_report: BugReport,
  business: Business,
  fact_check: FactCheck,
  group: Group,
  home: Home,
  inbox: Inbox,
  insights: Insights,
  lan: Lan,
  monitor_heart: MonitorHeart,
  payments: Payments,
  policy: Policy,
  preview: Preview,
  swap_horiz: SwapHoriz,
  timer: Timer,
};

/** Whether a menu icon name has its own icon (an unknown one shows the fallback chevron). */
export function hasMenuIcon(name: string): boolean {
  return name in icons;
}

export function MenuIcon({ name, ...props }: { name: string | undefined } & SvgIconProps) {
  const Icon = (name && icons[name]) || ChevronRight;
  return <Icon aria-hidden="true" {...props} />;
}
