import Logout from "@mui/icons-material/Logout";
import Avatar from "@mui/material/Avatar";
import Button from "@mui/material/Button";
import Divider from "@mui/material/Divider";
import ListItemIcon from "@mui/material/ListItemIcon";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Typography from "@mui/material/Typography";
import { type ReactNode, useId, useState } from "react";

/** An entry another part of the app adds to the account menu ("Report a bug"); the menu closes before it runs. */
export type UserMenuAction = {
  label: string;
  icon?: ReactNode;
  onSelect: () => void;
};

export type UserMenuProps = {
  name: string;
  email?: string;
  /** Shown between who is signed in and "Sign out", in this order. */
  actions?: readonly UserMenuAction[];
  onSignOut: () => void;
};

function initialsOf(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts;
  return letters.map((part) => part?.[0]?.toUpperCase() ?? "").join("") || "?";
}

/** The app bar's account button: who is signed in, the actions the app layer adds, and "Sign out". */
export function UserMenu({ name, email, actions = [], onSignOut }: UserMenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const buttonId = useId();
  const open = anchor !== null;
  return (
    <>
      <Button
        id={buttonId}
        color="inherit"
        aria-label={`Account: ${name}`}
        aria-haspopup="menu"
        aria-controls={open ? menuId : undefined}
        aria-expanded={open}
        onClick={(event) => setAnchor(event.currentTarget)}
        startIcon={
          <Avatar aria-hidden="true" sx={{ width: 28, height: 28, fontSize: 14, bgcolor: "secondary.main" }}>
            {initialsOf(name)}
          </Avatar>
        }
        sx={{ textTransform: "none" }}
      >
        <Typography component="span" noWrap sx={{ maxWidth: 200, display: { xs: "none", sm: "inline" } }}>
          {name}
        </Typography>
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={open}
        onClose={() => setAnchor(null)}
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
        {actions.map((action) => (
          <MenuItem
            key={action.label}
            onClick={() => {
              setAnchor(null);
              action.onSelect();
            }}
          >
            {action.icon ? <ListItemIcon>{action.icon}</ListItemIcon> : null}
            {action.label}
          </MenuItem>
        ))}
        {actions.length > 0 ? <Divider /> : null}
        <MenuItem
          onClick={() => {
            setAnchor(null);
            onSignOut();
          }}
        >
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          Sign out
        </MenuItem>
      </Menu>
    </>
  );
}
