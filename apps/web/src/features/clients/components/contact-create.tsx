import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type Client, contactInputSchema } from "@vigil/contract";
import { Link as RouterLink, useNavigate } from "react-router";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { applyServerError, useContractForm } from "../../../components/forms/use-contract-form";
import { PageHeading } from "../../../components/layouts/page-heading";
import { useCreateContact } from "../api/create-contact";
import { clientUrl } from "../client-urls";
import { ClientSubpage } from "./client-subpage";
import { ContactFormFields, contactFormValues, toContactInput } from "./contact-form-fields";

function ContactCreateForm({ client }: { client: Client }) {
  const navigate = useNavigate();
  const create = useCreateContact();
  const form = useContractForm({
    schema: contactInputSchema,
    defaultValues: contactFormValues(),
    toInput: toContactInput,
  });
  const failure = apiErrorOf(create.error);
  const backTo = clientUrl(client.id, "contacts");

  const submit = form.handleSubmit((input) => {
    create.mutate(
      { clientId: client.id, input },
      {
        onSuccess: () => {
          form.reset(form.getValues());
          void navigate(backTo);
        },
        onError: (error) => applyServerError(form.setError, error),
      },
    );
  });

  return (
    <>
      <PageHeading>New contact</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        For {client.name} ({client.code})
      </Typography>
      <Box component="form" noValidate onSubmit={submit} aria-label="New contact" sx={{ maxWidth: 900 }}>
        {failure && failure.status !== 400 ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            The contact was not added: {failure.message}
          </Alert>
        ) : null}
        <ContactFormFields form={form} />
        <Stack direction="row" spacing={2} sx={{ mt: 3 }}>
          <Button type="submit" variant="contained" disabled={create.isPending}>
            {create.isPending ? "Adding…" : "Add contact"}
          </Button>
          <Button component={RouterLink} to={backTo} disabled={create.isPending}>
            Cancel
          </Button>
        </Stack>
      </Box>
    </>
  );
}

/** `/continuous-monitoring/clients/{clientId}/contacts/create`. */
export function ContactCreatePage() {
  return <ClientSubpage>{(client) => <ContactCreateForm client={client} />}</ClientSubpage>;
}
