import BarChartIcon from "@mui/icons-material/BarChart";
import TimerIcon from "@mui/icons-material/Timer";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Paper from "@mui/material/Paper";
import { pages } from "@vigil/contract";
import { Link as RouterLink } from "react-router";
import { PageHeading } from "../../../components/layouts/page-heading";

/** `/reporting`: the reports there are. */
export function ReportingHomePage() {
  return (
    <>
      <PageHeading>Reporting</PageHeading>
      <Paper variant="outlined" component="nav" aria-label="Reports" sx={{ maxWidth: 640 }}>
        <List>
          <li>
            <ListItemButton component={RouterLink} to={pages["reporting-overview"].href()}>
              <ListItemIcon>
                <BarChartIcon />
              </ListItemIcon>
              <ListItemText
                primary="Continuous monitoring — billable hours"
                secondary="Hours by day, week, month, client or technologist for a period, as a chart, a table and CSV; printable per client"
              />
            </ListItemButton>
          </li>
          <li>
            <ListItemButton component={RouterLink} to={pages["reporting-service-levels"].href()}>
              <ListItemIcon>
                <TimerIcon />
              </ListItemIcon>
              <ListItemText
                primary="Continuous monitoring — service levels"
                secondary="Per client and month: each promise of the protocol kept or missed, how long it took, the missed cases, and the last 12 months; CSV and printable"
              />
            </ListItemButton>
          </li>
        </List>
      </Paper>
    </>
  );
}
