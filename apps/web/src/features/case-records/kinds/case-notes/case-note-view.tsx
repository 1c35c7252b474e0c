import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import {
  type CaseNoteData,
  type CaseNoteItem,
  type CaseNoteList,
  caseNoteCategories,
  caseNoteDataSchema,
} from "@vigil/contract";
import { FormTextField } from "../../../../components/forms/form-text-field";
import { FormSelectField, optionsOf } from "../../../../components/forms/select-field";
import { useContractForm } from "../../../../components/forms/use-contract-form";
import type { RecordEditorProps, RecordView } from "../../components/record-view";
import { RecordEditorForm } from "../form-parts";

type CaseNoteCategory = (typeof caseNoteCategories)[number];

export const caseNoteCategoryLabels: Record<CaseNoteCategory, string> = {
  general: "General",
  handoff: "Handoff",
  issue: "Issue",
};

function CaseNoteEditor(props: RecordEditorProps<CaseNoteData>) {
  const { initial } = props;
  const form = useContractForm({
    schema: caseNoteDataSchema,
    defaultValues: { category: initial?.category ?? "general", body: initial?.body ?? "" },
  });
  return (
    <RecordEditorForm form={form} label="Case note" editor={props}>
      <Stack spacing={2}>
        <FormSelectField
          control={form.control}
          name="category"
          label="Category"
          fullWidth
          options={optionsOf(caseNoteCategories, caseNoteCategoryLabels)}
        />
        <FormTextField
          control={form.control}
          name="body"
          label="Note"
          required
          fullWidth
          multiline
          minRows={5}
          autoFocus
        />
      </Stack>
    </RecordEditorForm>
  );
}

function CaseNoteBody({ item }: { item: CaseNoteItem }) {
  return (
    <Stack spacing={1}>
      <Box>
        <Chip
          size="small"
          label={caseNoteCategoryLabels[item.data.category]}
          color={item.data.category === "issue" ? "warning" : item.data.category === "handoff" ? "info" : "default"}
        />
      </Box>
      <Typography sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{item.data.body}</Typography>
    </Stack>
  );
}

/** Case notes: free text with a category (general, handoff, issue), kept until the case closes. */
export const caseNoteView: RecordView<CaseNoteItem, CaseNoteData, CaseNoteList> = {
  kind: "case-note",
  title: "Case notes",
  noun: "case note",
  emptyText: "No case notes yet.",
  Editor: CaseNoteEditor,
  ItemBody: CaseNoteBody,
  flatten: (data) => ({ Category: caseNoteCategoryLabels[data.category], Note: data.body }),
};
