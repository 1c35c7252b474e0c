import MoreVert from "@mui/icons-material/MoreVert";
import IconButton from "@mui/material/IconButton";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import type { User } from "@vigil/contract";
import { useId, useState } from "react";
import { hasMfa } from "../user-labels";

export type UserAction = "groups" | "contact" | "professional" | "toggle" | "reset-password" | "sms-mfa" | "reset-mfa";

/** The row's "⋮" menu: each entry opens a dialog that asks before anything changes. */
export function UserRowActions({ user, onAction }: { user: User; onAction: (action: UserAction) => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const choose = (action: UserAction) => {
    setAnchor(null);
    onAction(action);
  };
  return (
    <>
      <IconButton
        aria-label={`Actions for ${user.username}`}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor !== null}
        onClick={(event) => setAnchor(event.currentTarget)}
        size="small"
      >
        <MoreVert fontSize="small" />
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => choose("groups")}>Edit access groups</MenuItem>
        <MenuItem onClick={() => choose("contact")}>Edit contact details</MenuItem>
        <MenuItem onClick={() => choose("professional")}>Edit professional details</MenuItem>
        <MenuItem onClick={() => choose("toggle")}>{user.isEnabled ? "Disable" : "Enable"}</MenuItem>
        <MenuItem onClick={() => choose("reset-password")}>Reset password</MenuItem>
        <MenuItem onClick={() => choose("sms-mfa")} disabled={!user.mfa.sms && !user.phoneNumber}>
          {user.mfa.sms ? "Turn off SMS codes" : "Turn on SMS codes"}
        </MenuItem>
        <MenuItem onClick={() => choose("reset-mfa")} disabled={!hasMfa(user)}>
          Reset MFA
        </MenuItem>
      </Menu>
    </>
  );
}
