import { lazy, Suspense } from "react";
import { LoadingScreen } from "../../components/feedback/loading-screen";
import { ClientDetailPage, type InterfacesTabRenderer } from "../../features/clients/components/client-detail";

// The interface profile's screens load on demand, in their own chunk.
const ClientInterfaces = lazy(() =>
  import("../../features/interfaces/components/client-interfaces").then((module) => ({
    default: module.ClientInterfaces,
  })),
);

const renderInterfacesTab: InterfacesTabRenderer = (client) => (
  <Suspense fallback={<LoadingScreen label="Loading the interface profile…" />}>
    <ClientInterfaces client={client} />
  </Suspense>
);

/** The client screen with the interfaces feature's tab composed in here, in the app layer, so no feature imports another. */
export function ClientDetailRoutePage() {
  return <ClientDetailPage renderInterfacesTab={renderInterfacesTab} />;
}
