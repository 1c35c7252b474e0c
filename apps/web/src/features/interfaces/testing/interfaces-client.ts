import type { Client } from "@vigil/contract";

/** The client whose Interfaces tab the interfaces screens' tests open, and the paths they answer. */
export const clientId = "0b6c1f7e-8a52-4f43-9a4e-3f1d2c5b7a10";
export const api = `/api/continuous-monitoring/clients/${clientId}`;
export const tabPath = `/continuous-monitoring/clients/${clientId}/interfaces`;

export const client: Client = {
  id: clientId,
  name: "St. Mary's Regional Medical Center",
  code: "SMRMC",
  status: "active",
  timezone: "America/New_York",
  phone: null,
  addressLine1: null,
  addressLine2: null,
  city: null,
  region: null,
  postalCode: null,
  country: null,
  notes: null,
  archivedAt: null,
  openCaseCount: 0,
  version: 1,
  createdAt: "2026-01-05T14:00:00.000Z",
  updatedAt: "2026-11-22T14:14:00.000Z",
};
