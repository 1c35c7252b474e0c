import Search from "@mui/icons-material/Search";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import { useDebouncedText } from "./use-debounced-text";

/**
 * A list's search box, held in the URL: it shows `urlValue`, and what is typed is handed to `onSettled` after a
 * short pause (see `useDebouncedText`), so the server is asked once per pause, not once per key.
 */
export function SearchField({
  urlValue,
  onSettled,
  placeholder,
  label = "Search",
  minWidth = 240,
}: {
  urlValue: string;
  onSettled: (value: string) => void;
  placeholder: string;
  label?: string;
  minWidth?: number;
}) {
  const [text, setText] = useDebouncedText(urlValue, onSettled);
  return (
    <TextField
      label={label}
      type="search"
      size="small"
      value={text}
      onChange={(event) => setText(event.target.value)}
      placeholder={placeholder}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <Search fontSize="small" aria-hidden="true" />
            </InputAdornment>
          ),
        },
      }}
      sx={{ minWidth }}
    />
  );
}
