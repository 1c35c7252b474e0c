import Search from "@mui/icons-material/Search";
import Button from "@mui/material/Button";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { type AccessGroup, accessGroups } from "@vigil/contract";
import { useEffect, useState } from "react";
import { isFiltered, type UserListView } from "../use-user-list-view";
import { groupLabels } from "../user-labels";

/** Typing pauses this long before the list is asked for again. */
export const searchDelayMs = 300;

type UserFiltersProps = {
  view: UserListView;
  onChange: (change: Partial<UserListView>) => void;
};

/** Search, group and enabled filters; their values live in the URL (see `useUserListView`). */
export function UserFilters({ view, onChange }: UserFiltersProps) {
  const [search, setSearch] = useState(view.search);

  // The URL wins when it changes from outside (Back, a link, "Clear filters").
  useEffect(() => setSearch(view.search), [view.search]);

  useEffect(() => {
    if (search.trim() === view.search) return;
    const timer = setTimeout(() => onChange({ search: search.trim() }), searchDelayMs);
    return () => clearTimeout(timer);
  }, [search, view.search, onChange]);

  return (
    <Stack
      direction={{ xs: "column", sm: "row" }}
      spacing={2}
      sx={{ mb: 2, alignItems: { sm: "center" } }}
      role="search"
      aria-label="Filter users"
    >
      <TextField
        label="Search"
        placeholder="Username, name or email"
        size="small"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        sx={{ minWidth: 260 }}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <Search fontSize="small" aria-hidden="true" />
              </InputAdornment>
            ),
          },
        }}
      />
      <TextField
        select
        label="Access group"
        size="small"
        value={view.group ?? ""}
        onChange={(event) => onChange({ group: (event.target.value as AccessGroup) || null })}
        sx={{ minWidth: 180 }}
      >
        <MenuItem value="">Any group</MenuItem>
        {accessGroups.map((group) => (
          <MenuItem key={group} value={group}>
            {groupLabels[group].label}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label="Account"
        size="small"
        value={view.enabled === null ? "" : String(view.enabled)}
        onChange={(event) => onChange({ enabled: event.target.value === "" ? null : event.target.value === "true" })}
        sx={{ minWidth: 150 }}
      >
        <MenuItem value="">Enabled or disabled</MenuItem>
        <MenuItem value="true">Enabled</MenuItem>
        <MenuItem value="false">Disabled</MenuItem>
      </TextField>
      {isFiltered(view) ? (
        <Button onClick={() => onChange({ search: "", group: null, enabled: null })}>Clear filters</Button>
      ) : null}
    </Stack>
  );
}
