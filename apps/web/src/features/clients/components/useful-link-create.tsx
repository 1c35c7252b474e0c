import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type Client, usefulLinkInputSchema } from "@vigil/contract";
import { Link as RouterLink, useNavigate } from "react-router";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { applyServerError, useContractForm } from "../../../components/forms/use-contract-form";
import { PageHeading } from "../../../components/layouts/page-heading";
import { useCreateUsefulLink } from "../api/create-useful-link";
import { clientUrl } from "../client-urls";
import { ClientSubpage } from "./client-subpage";
import { toUsefulLinkInput, UsefulLinkFormFields, usefulLinkFormValues } from "./useful-link-form-fields";

function UsefulLinkCreateForm({ client }: { client: Client }) {
  const navigate = useNavigate();
  const create = useCreateUsefulLink();
  const form = useContractForm({
    schema: usefulLinkInputSchema,
    defaultValues: usefulLinkFormValues(),
    toInput: toUsefulLinkInput,
  });
  const failure = apiErrorOf(create.error);
  const backTo = clientUrl(client.id, "useful-links");

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
      <PageHeading>New useful link</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        For {client.name} ({client.code})
      </Typography>
      <Box component="form" noValidate onSubmit={submit} aria-label="New useful link" sx={{ maxWidth: 900 }}>
        {failure && failure.status !== 400 ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            The link was not added: {failure.message}
          </Alert>
        ) : null}
        <UsefulLinkFormFields form={form} />
        <Stack direction="row" spacing={2} sx={{ mt: 3 }}>
          <Button type="submit" variant="contained" disabled={create.isPending}>
            {create.isPending ? "Adding…" : "Add link"}
          </Button>
          <Button component={RouterLink} to={backTo} disabled={create.isPending}>
            Cancel
          </Button>
        </Stack>
      </Box>
    </>
  );
}

/** `/continuous-monitoring/clients/{clientId}/useful-links/create`. */
export function UsefulLinkCreatePage() {
  return <ClientSubpage>{(client) => <UsefulLinkCreateForm client={client} />}</ClientSubpage>;
}
