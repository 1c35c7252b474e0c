import Checkbox from "@mui/material/Checkbox";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import Typography from "@mui/material/Typography";
import { type Case, type CptWarningId, cptWarningLabels } from "@vigil/contract";
import { useId } from "react";
import { type Control, useController } from "react-hook-form";
import { useAccess } from "../../../../components/access/access-context";
import { labelledMessage } from "../../../../components/forms/field-messages";
import { useBillingCheck } from "../../api/get-billing-check";

type WarningChoice = { id: CptWarningId; label: string; message: string | null };

const legend = "Acknowledge CPT warnings";

/**
 * The case's current CPT warnings (from its billing check) as checkboxes: a ticked one is saved in the note's
 * `acknowledgedWarnings`, which closing the case needs. Warnings the note already acknowledges stay listed (and
 * kept) even when the check no longer raises them or cannot be read; without the check there is nothing to add.
 */
export function AcknowledgeWarningsField<V extends { acknowledgedWarnings: CptWarningId[] }>({
  control,
  caseItem,
}: {
  control: Control<V, unknown, unknown>;
  caseItem: Case;
}) {
  const { can } = useAccess();
  const check = useBillingCheck(caseItem.id, { enabled: can("records:billing-notes") });
  const { field, fieldState } = useController({
    control: control as unknown as Control<{ acknowledgedWarnings: CptWarningId[] }, unknown, unknown>,
    name: "acknowledgedWarnings",
  });
  const helpId = useId();
  const value: CptWarningId[] = field.value ?? [];
  const current = check.data?.cpt.warnings ?? [];
  const choices: WarningChoice[] = [
    ...current.map((warning) => ({ id: warning.id, label: cptWarningLabels[warning.id], message: warning.message })),
    ...value
      .filter((id) => !current.some((warning) => warning.id === id))
      .map((id) => ({
        id,
        label: cptWarningLabels[id],
        message: check.data ? "The billing check no longer raises this warning." : null,
      })),
  ];

  if (check.isPending && check.fetchStatus !== "idle") {
    return (
      <Typography role="status" variant="body2" color="text.secondary">
        Reading the case's CPT warnings…
      </Typography>
    );
  }
  if (choices.length === 0) {
    return check.data ? (
      <Typography variant="body2" color="text.secondary">
        The billing check raises no CPT warnings for this case.
      </Typography>
    ) : null;
  }
  const toggle = (id: CptWarningId, checked: boolean) => {
    field.onChange(checked ? [...value.filter((entry) => entry !== id), id] : value.filter((entry) => entry !== id));
  };
  const error = fieldState.error?.message;
  return (
    <FormControl component="fieldset" error={Boolean(error)} sx={{ border: 0, p: 0, m: 0 }}>
      <FormLabel component="legend" sx={{ fontWeight: 600, color: "text.primary", mb: 0.5 }}>
        {legend}
      </FormLabel>
      <FormGroup>
        {choices.map((choice, index) => {
          const describedBy = choice.message ? `${helpId}-${choice.id}` : undefined;
          return (
            <div key={choice.id}>
              <FormControlLabel
                label={choice.label}
                control={
                  <Checkbox
                    name={field.name}
                    checked={value.includes(choice.id)}
                    onChange={(event) => toggle(choice.id, event.target.checked)}
                    onBlur={field.onBlur}
                    slotProps={{
                      input: {
                        ...(index === 0 ? { ref: field.ref } : {}),
                        "aria-describedby": describedBy,
                      } as React.ComponentProps<"input">,
                    }}
                  />
                }
              />
              {choice.message ? (
                <Typography id={describedBy} variant="body2" color="text.secondary" sx={{ ml: 4, mt: -0.5, mb: 0.5 }}>
                  {choice.message}
                </Typography>
              ) : null}
            </div>
          );
        })}
      </FormGroup>
      <FormHelperText>
        {error
          ? labelledMessage(legend, error)
          : "Each warning of the case must be acknowledged in a billing note before the case closes."}
      </FormHelperText>
    </FormControl>
  );
}
