import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import type { MenuEntry } from "@vigil/contract";
import { Link as RouterLink } from "react-router";
import { isCurrentUrl, isExternalUrl, visibleMenuEntries } from "../menu-entries";
import { MenuIcon } from "./menu-icon";

export type NavMenuProps = {
  items: readonly MenuEntry[];
  currentPath: string;
  /** Called after a choice (closes the drawer on small screens). */
  onNavigate?: () => void;
};

function NavMenuList({
  entries,
  currentPath,
  onNavigate,
  depth,
}: {
  entries: readonly MenuEntry[];
  currentPath: string;
  onNavigate?: () => void;
  depth: number;
}) {
  return (
    <List disablePadding={depth > 0} dense={depth > 0}>
      {entries.map((entry) => {
        const current = isCurrentUrl(entry.url, currentPath);
        const linkProps = isExternalUrl(entry.url)
          ? { component: "a" as const, href: entry.url }
          : { component: RouterLink, to: entry.url };
        return (
          <li key={`${entry.title}:${entry.url}`}>
            <ListItemButton
              {...linkProps}
              selected={current}
              aria-current={current ? "page" : undefined}
              onClick={onNavigate}
              sx={{ pl: 2 + depth * 2 }}
            >
              <ListItemIcon sx={{ minWidth: 40 }}>
                <MenuIcon name={entry.icon} fontSize={depth > 0 ? "small" : "medium"} />
              </ListItemIcon>
              <ListItemText primary={entry.title} />
            </ListItemButton>
            {entry.children && entry.children.length > 0 ? (
              <NavMenuList
                entries={entry.children}
                currentPath={currentPath}
                onNavigate={onNavigate}
                depth={depth + 1}
              />
            ) : null}
          </li>
        );
      })}
    </List>
  );
}

/** The navigation drawer's content, built from `GET /chrome` (the server already filtered it by group). */
export function NavMenu({ items, currentPath, onNavigate }: NavMenuProps) {
  return (
    <NavMenuList entries={visibleMenuEntries(items)} currentPath={currentPath} onNavigate={onNavigate} depth={0} />
  );
}
