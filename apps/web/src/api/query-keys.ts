/**
 * Query keys that more than one feature reads or refreshes. Each has this one home, so the same list is cached
 * once and one invalidation reaches every screen that shows it. The features' own keys extend these prefixes
 * (`clientKeys.detail`, `caseKeys.detail`, `caseKeys.lists`, the users feature's root) rather than repeat them.
 */
export const sharedKeys = {
  /** Everything the clients feature caches; a client change refreshes every client read under it. */
  clients: () => ["clients"] as const,
  /** Every active client's id, name and code: the client pickers and filters of cases, billing, reporting, audit. */
  clientIds: () => [...sharedKeys.clients(), "ids"] as const,
  /** Everything about one client (its data, contacts, protocol, cases). */
  clientDetail: (clientId: string) => [...sharedKeys.clients(), "detail", clientId] as const,
  client: (clientId: string) => [...sharedKeys.clientDetail(clientId), "client"] as const,
  clientContacts: (clientId: string) => [...sharedKeys.clientDetail(clientId), "contacts"] as const,
  /**
   * Everything read about users. The technologist and reviewer pickers sit under it, so a change of a user's groups
   * or state (the users feature invalidates this root) refreshes them too.
   */
  users: () => ["users"] as const,
  technologists: () => [...sharedKeys.users(), "technologists"] as const,
  reviewers: () => [...sharedKeys.users(), "reviewers"] as const,
  /** Everything cached about one case (its header, allowed moves, timeline): record writes refresh it too. */
  caseDetail: (caseId: string) => ["cases", "detail", caseId] as const,
  /** A case's service clocks: every record write may move one, whatever the kind. */
  caseClocks: (caseId: string) => [...sharedKeys.caseDetail(caseId), "clocks"] as const,
  /**
   * The per-case records (every kind's lists, histories, patient details, the billing check): the case-records
   * feature's keys extend it. Without a case id: every case's.
   */
  caseRecords: (caseId?: string) =>
    caseId === undefined ? (["case-records", "case"] as const) : (["case-records", "case", caseId] as const),
  /** Every case list (queues, assignments, home counts). */
  caseLists: () => ["cases", "list"] as const,
  /** The watch: the board and every read that follows the clocks of many cases; every case event refreshes it. */
  watch: () => ["watch"] as const,
  /** The signed-in user's clock alerts (the list and its unread count). */
  clockAlerts: () => [...sharedKeys.watch(), "alerts"] as const,
  /** The breadcrumb trails: they name clients and cases, so renaming a client or moving a case refreshes them. */
  breadcrumbs: () => ["chrome", "breadcrumbs"] as const,
};
