import { type Client, usefulLinkInputSchema } from "@vigil/contract";
import { useCreateUsefulLink } from "../api/create-useful-link";
import { ClientItemCreateForm } from "./client-item-create";
import { ClientSubpage } from "./client-subpage";
import { toUsefulLinkInput, UsefulLinkFormFields, usefulLinkFormValues } from "./useful-link-form-fields";

function UsefulLinkCreateForm({ client }: { client: Client }) {
  const create = useCreateUsefulLink();
  return (
    <ClientItemCreateForm
      client={client}
      heading="New useful link"
      noun="link"
      tab="useful-links"
      schema={usefulLinkInputSchema}
      defaultValues={usefulLinkFormValues()}
      toInput={toUsefulLinkInput}
      renderFields={(form) => <UsefulLinkFormFields form={form} />}
      create={(input) => create.mutateAsync({ clientId: client.id, input })}
    />
  );
}

/** `/continuous-monitoring/clients/{clientId}/useful-links/create`. */
export function UsefulLinkCreatePage() {
  return <ClientSubpage>{(client) => <UsefulLinkCreateForm client={client} />}</ClientSubpage>;
}
