import Logout from "@mui/icons-material/Logout";
import Divider from "@mui/material/Divider";
import ListItemIcon from "@mui/material/ListItemIcon";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { Link } from "react-router";

/**
 * An entry another part of the app adds to the account menu: a page it links to ("Account") or an action it runs
 * ("Report a bug"); the menu closes before either.
 */
export type UserMenuAction = {
  label: string;
  icon?: ReactNode;
} & ({ to: string } | { onSelect: () => void });

export type UserMenuProps = {
  name: string;
  email?: string;
  /** Shown between who is signed in and "Sign out", in this order. */
  actions?: readonly UserMenuAction[];
  onSignOut: () => void;
};

export type UserMenuListProps = UserMenuProps & {
  id: string;
  buttonId: string;
  anchor: HTMLElement | null;
  onClose: () => void;
};

/**
 * The account menu's popup: who is signed in, the app layer's actions, "Sign out". Its own chunk (MUI's Menu,
 * Popover and MenuList), loaded when the account button is first pointed at, focused or clicked.
 */
export function UserMenuList({
  id,
  buttonId,
  anchor,
  onClose,
  name,
  email,
  actions = [],
  onSignOut,
}: UserMenuListProps) {
  return (
    <Menu
      id={id}
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      slotProps={{ list: { "aria-labelledby": buttonId } }}
      anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
      transformOrigin={{ vertical: "top", horizontal: "right" }}
    >
      <MenuItem disabled sx={{ display: "block", opacity: "1 !important" }}>
        <Typography sx={{ fontWeight: 600 }}>{name}</Typography>
        {email ? (
          <Typography variant="body2" color="text.secondary">
            {email}
          </Typography>
        ) : null}
      </MenuItem>
      <Divider />
      {actions.map((action) => {
        const content = (
          <>
            {action.icon ? <ListItemIcon>{action.icon}</ListItemIcon> : null}
            {action.label}
          </>
        );
        // A page is a real link (opens in a new tab, shows its address); an action is a plain item.
        return "to" in action ? (
          <MenuItem key={action.label} component={Link} to={action.to} onClick={onClose}>
            {content}
          </MenuItem>
        ) : (
          <MenuItem
            key={action.label}
            onClick={() => {
              onClose();
              action.onSelect();
            }}
          >
            {content}
          </MenuItem>
        );
      })}
      {actions.length > 0 ? <Divider /> : null}
      <MenuItem
        onClick={() => {
          onClose();
          onSignOut();
        }}
      >
        <ListItemIcon>
          <Logout fontSize="small" />
        </ListItemIcon>
        Sign out
      </MenuItem>
    </Menu>
  );
}
