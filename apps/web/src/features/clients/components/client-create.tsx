import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import { clientInputSchema } from "@vigil/contract";
import { Link as RouterLink, useNavigate } from "react-router";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { applyServerError, showServerErrors, useContractForm } from "../../../components/forms/use-contract-form";
import { PageHeading } from "../../../components/layouts/page-heading";
import { useCreateClient } from "../api/create-client";
import { pages } from "@vigil/contract";
import { ClientFormFields, clientFormValues, toClientInput } from "./client-form-fields";

/** `/continuous-monitoring/clients/create`: the new-client form; on success, the new client's overview. */
export function ClientCreatePage() {
  const navigate = useNavigate();
  const create = useCreateClient();
  const form = useContractForm({
    schema: clientInputSchema,
    defaultValues: clientFormValues(),
    toInput: toClientInput,
  });
  const failure = apiErrorOf(create.error);

  const submit = form.handleSubmit((input) => {
    create.mutate(input, {
      onSuccess: (client) => {
        form.reset(form.getValues());
        void navigate(pages["client-detail"].href({ clientId: client.id, tab: "overview" }));
      },
      onError: (error) => {
        const body = apiErrorOf(error);
        // A taken code is a 409 about one field: say it there, like any other field message.
        if (!applyServerError(form.setError, error) && body?.status === 409)
          showServerErrors(form.setError, { code: body.message });
      },
    });
  });

  return (
    <>
      <PageHeading>New client</PageHeading>
      <Box component="form" noValidate onSubmit={submit} aria-label="New client" sx={{ maxWidth: 900 }}>
        {failure && failure.status !== 409 && failure.status !== 400 ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            The client was not created: {failure.message}
          </Alert>
        ) : null}
        {failure?.status === 400 ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            The server did not accept the client: check the fields marked below.
          </Alert>
        ) : null}
        <ClientFormFields form={form} />
        <Stack direction="row" spacing={2} sx={{ mt: 3 }}>
          <Button type="submit" variant="contained" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create client"}
          </Button>
          <Button component={RouterLink} to={pages.clients.href()} disabled={create.isPending}>
            Cancel
          </Button>
        </Stack>
      </Box>
    </>
  );
}
