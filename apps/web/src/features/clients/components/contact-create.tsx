import { type Client, contactInputSchema } from "@vigil/contract";
import { useCreateContact } from "../api/create-contact";
import { ClientItemCreateForm } from "./client-item-create";
import { ClientSubpage } from "./client-subpage";
import { ContactFormFields, contactFormValues, toContactInput } from "./contact-form-fields";

function ContactCreateForm({ client }: { client: Client }) {
  const create = useCreateContact();
  return (
    <ClientItemCreateForm
      client={client}
      heading="New contact"
      noun="contact"
      tab="contacts"
      schema={contactInputSchema}
      defaultValues={contactFormValues()}
      toInput={toContactInput}
      renderFields={(form) => <ContactFormFields form={form} />}
      create={(input) => create.mutateAsync({ clientId: client.id, input })}
    />
  );
}

/** `/continuous-monitoring/clients/{clientId}/contacts/create`. */
export function ContactCreatePage() {
  return <ClientSubpage>{(client) => <ContactCreateForm client={client} />}</ClientSubpage>;
}
