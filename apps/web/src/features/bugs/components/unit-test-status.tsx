import Cancel from "@mui/icons-material/Cancel";
import CheckCircle from "@mui/icons-material/CheckCircle";
import RemoveCircleOutlined from "@mui/icons-material/RemoveCircleOutlined";
import Box from "@mui/material/Box";
import type { SvgIconProps } from "@mui/material/SvgIcon";
import type { ComponentType } from "react";
import type { TestStatus, TestSuite } from "../api/operator-query-keys";

export const testSuiteLabels: Record<TestSuite, string> = {
  contract: "Contract",
  server: "Server",
  web: "Web",
  scripts: "Tooling scripts",
  e2e: "End-to-end",
};

export const testStatusLabels: Record<TestStatus, string> = {
  passed: "Passed",
  failed: "Failed",
  skipped: "Skipped",
};

const statusLook: Record<TestStatus, { Icon: ComponentType<SvgIconProps>; color: SvgIconProps["color"] }> = {
  passed: { Icon: CheckCircle, color: "success" },
  failed: { Icon: Cancel, color: "error" },
  skipped: { Icon: RemoveCircleOutlined, color: "disabled" },
};

export function UnitTestStatusIcon({ status }: { status: TestStatus }) {
  const { Icon, color } = statusLook[status];
  return <Icon fontSize="small" color={color} aria-hidden="true" />;
}

/** A test's status as an icon and a word, never colour alone. */
export function UnitTestStatusLabel({ status }: { status: TestStatus }) {
  return (
    <Box
      component="span"
      sx={{
        display: "inline-flex",
        alignItems: "center",
        gap: 0.5,
        whiteSpace: "nowrap",
        fontWeight: status === "failed" ? 600 : undefined,
      }}
    >
      <UnitTestStatusIcon status={status} />
      {testStatusLabels[status]}
    </Box>
  );
}

/** "12 ms", "3.4 s", "2 min 05 s": how long a test took, read at a glance. */
export function formatTestDuration(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
}
