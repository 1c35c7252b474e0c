import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { Link as RouterLink } from "react-router";
import { PageHeading } from "../../components/layouts/page-heading";
import { CaseHomeCards } from "../../features/cases/components/case-home-cards";
import { MenuIcon } from "../../features/chrome/components/menu-icon";
import { flattenMenuEntries, homeEntryTitle, isExternalUrl } from "../../features/chrome/menu-entries";
import { WatchHomeLead } from "../../features/watch/components/watch-home-lead";
import { useSession } from "../session";

/**
 * The homepage: a welcome, then for those who work cases what is due next for them (their part of the watch board),
 * their case work at a glance (what they may see), and every place their menu leads.
 */
export function HomePage() {
  const session = useSession();
  if (session.status !== "ready") return null;
  const links = flattenMenuEntries(session.menu).filter((entry) => entry.title !== homeEntryTitle);
  return (
    <>
      <PageHeading>Welcome, {session.user.name || session.user.username}</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Continuous EEG monitoring back-office. Where would you like to go?
      </Typography>
      <WatchHomeLead />
      <CaseHomeCards userSub={session.user.sub} />
      {links.length === 0 ? (
        <Typography>Your access groups do not open any section yet.</Typography>
      ) : (
        <Paper variant="outlined" component="section" aria-labelledby="home-links-heading" sx={{ maxWidth: 560 }}>
          <Typography id="home-links-heading" variant="h6" component="h2" sx={{ px: 2, pt: 2 }}>
            Your sections
          </Typography>
          <List>
            {links.map((entry) => (
              <li key={entry.url}>
                <ListItemButton
                  {...(isExternalUrl(entry.url)
                    ? { component: "a" as const, href: entry.url }
                    : { component: RouterLink, to: entry.url })}
                >
                  <ListItemIcon>
                    <MenuIcon name={entry.icon} />
                  </ListItemIcon>
                  <ListItemText primary={entry.title} />
                </ListItemButton>
              </li>
            ))}
          </List>
        </Paper>
      )}
    </>
  );
}
