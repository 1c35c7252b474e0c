import Avatar from "@mui/material/Avatar";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { lazy, Suspense, useId, useState } from "react";
import type { UserMenuProps } from "./user-menu-list";

export type { UserMenuAction, UserMenuProps } from "./user-menu-list";

function initialsOf(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts;
  return letters.map((part) => part?.[0]?.toUpperCase() ?? "").join("") || "?";
}

// The popup (MUI's Menu) is not part of the signed-in shell's first load: it starts loading when the account
// button is pointed at or focused, usually well before the click that opens it.
const loadMenuList = () => import("./user-menu-list");
const UserMenuList = lazy(() => loadMenuList().then((module) => ({ default: module.UserMenuList })));
const preloadMenuList = () => void loadMenuList().catch(() => {});

/** The app bar's account button: who is signed in, the actions the app layer adds, and "Sign out". */
export function UserMenu(props: UserMenuProps) {
  const { name } = props;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Mounted from the first opening on, so closing keeps the menu's exit transition.
  const [wanted, setWanted] = useState(false);
  const menuId = useId();
  const buttonId = useId();
  const open = anchor !== null;
  return (
    <>
      <Button
        id={buttonId}
        color="inherit"
        // Starts with what is visible (the initials, then the name where there is room): a speech-input user says
        // what they see (WCAG 2.5.3, label in name). The space before the name makes the text read "AS Alice Smith"
        // rather than "ASAlice Smith", as the name does; the layout ignores it.
        aria-label={`${initialsOf(name)} ${name}, account`}
        aria-haspopup="menu"
        aria-controls={open ? menuId : undefined}
        aria-expanded={open}
        onPointerEnter={preloadMenuList}
        onFocus={preloadMenuList}
        onClick={(event) => {
          setWanted(true);
          setAnchor(event.currentTarget);
        }}
        startIcon={
          <Avatar aria-hidden="true" sx={{ width: 28, height: 28, fontSize: 14, bgcolor: "secondary.main" }}>
            {initialsOf(name)}
          </Avatar>
        }
        sx={{ textTransform: "none" }}
      >
        {" "}
        <Typography component="span" noWrap sx={{ maxWidth: 200, display: { xs: "none", sm: "inline" } }}>
          {name}
        </Typography>
      </Button>
      {wanted ? (
        <Suspense fallback={null}>
          <UserMenuList {...props} id={menuId} buttonId={buttonId} anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
