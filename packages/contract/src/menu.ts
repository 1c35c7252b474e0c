import type { Access } from "./access.js";

/** The full menu; `GET /api/chrome` returns the entries a caller's groups allow (PRODUCT.md §7). */
export type MenuDefinition = {
  title: string;
  url: string;
  icon?: string;
  access: Access;
  children?: MenuDefinition[];
};

export const menu: MenuDefinition[] = [
  { title: "Home", url: "/", icon: "home", access: "signed-in" },
  // Whoever works cases (coordinators, technologists, reviewers, admins; billing staff read cases too).
  { title: "Watch board", url: "/watch", icon: "timer", access: "cases:read" },
  {
    title: "Continuous monitoring",
    url: "/continuous-monitoring/cases/monitoring",
    icon: "monitor_heart",
    access: "cases:read",
    children: [
      { title: "Clients", url: "/continuous-monitoring/clients", icon: "business", access: "clients:read" },
      { title: "New case", url: "/continuous-monitoring/cases/create", icon: "add", access: "cases:create" },
      { title: "Intake", url: "/continuous-monitoring/cases/intake", icon: "inbox", access: "cases:read" },
      {
        title: "Monitoring",
        url: "/continuous-monitoring/cases/monitoring",
        icon: "monitor_heart",
        access: "cases:read",
      },
      { title: "Preview", url: "/continuous-monitoring/cases/preview", icon: "preview", access: "cases:read" },
      { title: "Reviewed", url: "/continuous-monitoring/cases/reviewed", icon: "fact_check", access: "cases:read" },
      { title: "Closed", url: "/continuous-monitoring/cases/closed", icon: "archive", access: "cases:read" },
      {
        title: "Assignments",
        url: "/continuous-monitoring/cases/assignments",
        icon: "assignment_ind",
        access: "cases:read",
      },
    ],
  },
  { title: "Billing", url: "/billing/continuous-monitoring", icon: "payments", access: "billing:read" },
  { title: "Reporting", url: "/reporting/continuous-monitoring", icon: "insights", access: "reporting:read" },
  { title: "Users", url: "/users", icon: "group", access: "users:manage" },
  { title: "HL7 message log", url: "/interfaces/hl7/messages", icon: "swap_horiz", access: "interfaces:read" },
  { title: "Audit log", url: "/audit", icon: "policy", access: "audit:read" },
  {
    title: "Bugs",
    url: "/bugs",
    icon: "bug_report",
    access: "bugs:triage",
    children: [
      { title: "Bug reports", url: "/bugs", icon: "bug_report", access: "bugs:triage" },
      { title: "Integration testing", url: "/bugs/integration-testing", icon: "lan", access: "integration:run" },
    ],
  },
  { title: "Unauthorized", url: "/unauthorized", access: "signed-in" },
];
