import { RouteErrorPage } from "../../components/errors/route-error-page";
import { BaseLayout } from "../../components/layouts/base-layout";

/** A crash above the layouts (or inside one) still gets a landmark and the error list. */
export function RootErrorRoute() {
  return (
    <BaseLayout>
      <RouteErrorPage />
    </BaseLayout>
  );
}
