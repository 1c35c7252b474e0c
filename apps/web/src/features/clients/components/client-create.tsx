import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import { clientInputSchema, pages } from "@vigil/contract";
import { useNavigate } from "react-router";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { FormActions } from "../../../components/forms/form-actions";
import { applyServerError, showServerErrors, useContractForm } from "../../../components/forms/use-contract-form";
import { PageHeading } from "../../../components/layouts/page-heading";
import { useCreateClient } from "../api/create-client";
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
        <FormActions
          submitLabel={create.isPending ? "Creating…" : "Create client"}
          pending={create.isPending}
          cancelTo={pages.clients.href()}
        />
      </Box>
    </>
  );
}
