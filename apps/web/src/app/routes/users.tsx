import { PageHeading } from "../../components/layouts/page-heading";
import { UserList } from "../../features/users/components/user-list";

/** `/users`: user administration (admin). */
export function UsersPage() {
  return (
    <>
      <PageHeading>Users</PageHeading>
      <UserList />
    </>
  );
}
