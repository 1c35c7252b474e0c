import { queryOptions, useQuery } from "@tanstack/react-query";
import { type AccountSecurity, fetchAccountSecurity } from "../../../lib/auth-account";

export const accountSecurityQueryKey = ["account", "security"] as const;

/** The signed-in user's contact details and second factors as the identity service holds them (GetUser). */
export function accountSecurityQueryOptions() {
  return queryOptions<AccountSecurity>({ queryKey: accountSecurityQueryKey, queryFn: fetchAccountSecurity });
}

export function useAccountSecurity() {
  return useQuery(accountSecurityQueryOptions());
}
