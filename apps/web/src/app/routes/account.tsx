import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { AccountPage as AccountScreen } from "../../features/account/components/account-page";
import { userQueryKey, useUser } from "../../features/users/api/get-user";
import { useSession } from "../session";

/** `/account`: the account feature's page for whoever is signed in; a change refreshes the user in the menu. */
export function AccountPage() {
  const session = useSession();
  const queryClient = useQueryClient();
  const username = session.status === "ready" || session.status === "denied" ? session.username : null;
  const user = useUser(username);
  const refreshUser = useCallback(() => {
    if (username) void queryClient.invalidateQueries({ queryKey: userQueryKey(username) });
  }, [queryClient, username]);
  // The page gate renders pages only for a signed-in session.
  if (!username) return null;
  return <AccountScreen username={username} onAccountChanged={refreshUser} user={user.data} />;
}
