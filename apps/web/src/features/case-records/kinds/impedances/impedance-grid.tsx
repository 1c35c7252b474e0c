import Box from "@mui/material/Box";
import Stack from "@mui/material/Stack";
import { alpha } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import type { Electrode, ImpedanceData } from "@vigil/contract";
import { ElectrodeHeadMap } from "./electrode-head-map";
import { ImpedanceLevelIcon } from "./impedance-level-icon";
import {
  formatKohm,
  type ImpedanceLevel,
  impedanceLevel,
  impedanceLevelColors,
  impedanceLevelLabels,
  impedanceLevelRanges,
} from "./impedance-levels";

export type ImpedanceGridProps = {
  values: ImpedanceData["values"];
  thresholdKohm: number;
  /** The server's judgement of the check (kept with the item); computed from the threshold when absent. */
  flagged?: readonly Electrode[];
  caution?: readonly Electrode[];
  label?: string;
};

function levelOf(electrode: Electrode, kohm: number, props: ImpedanceGridProps): ImpedanceLevel {
  if (props.flagged && props.caution) {
    if (props.flagged.includes(electrode)) return "flagged";
    if (props.caution.includes(electrode)) return "caution";
    return "good";
  }
  return impedanceLevel(kohm, props.thresholdKohm);
}

/** One electrode's reading: name, kΩ, an icon and a word for its level, and its colour. */
export function ElectrodeReading({
  electrode,
  kohm,
  level,
}: {
  electrode: Electrode;
  kohm: number | undefined;
  level: ImpedanceLevel | undefined;
}) {
  const color = level ? impedanceLevelColors[level] : undefined;
  return (
    <Box
      data-level={level ?? "not-measured"}
      sx={{
        border: 2,
        borderRadius: 1,
        px: 1,
        py: 0.5,
        textAlign: "center",
        borderColor: color ? `${color}.main` : "divider",
        borderStyle: level ? "solid" : "dashed",
        bgcolor: (theme) => (color ? alpha(theme.palette[color].main, 0.12) : "transparent"),
      }}
    >
      <Typography component="span" sx={{ display: "block", fontWeight: 700 }}>
        {electrode}
      </Typography>
      {kohm === undefined || !level ? (
        <Typography component="span" variant="body2" color="text.secondary" sx={{ display: "block" }}>
          not measured
        </Typography>
      ) : (
        <>
          <Typography component="span" variant="body2" sx={{ display: "block" }}>
            {formatKohm(kohm)} kΩ
          </Typography>
          <Stack component="span" direction="row" spacing={0.5} sx={{ alignItems: "center", justifyContent: "center" }}>
            <ImpedanceLevelIcon level={level} />
            <Typography component="span" variant="caption">
              {impedanceLevelLabels[level]}
            </Typography>
          </Stack>
        </>
      )}
    </Box>
  );
}

/** What the colours mean with this threshold. */
export function ImpedanceLegend({ thresholdKohm }: { thresholdKohm: number }) {
  const ranges = impedanceLevelRanges(thresholdKohm);
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: "wrap" }} aria-label="Impedance levels">
      {(["good", "caution", "flagged"] as const).map((level) => (
        <Stack key={level} direction="row" spacing={0.5} sx={{ alignItems: "center" }}>
          <ImpedanceLevelIcon level={level} />
          <Typography variant="body2">
            {impedanceLevelLabels[level]}: {ranges[level]}
          </Typography>
        </Stack>
      ))}
    </Stack>
  );
}

/** A check's readings on the head map, each coloured by level with its word and icon. */
export function ImpedanceGrid(props: ImpedanceGridProps) {
  const byElectrode = new Map(props.values.map((value) => [value.electrode, value.kohm]));
  return (
    <ElectrodeHeadMap
      label={props.label ?? "Electrode impedances"}
      renderCell={(electrode) => {
        const kohm = byElectrode.get(electrode);
        return (
          <ElectrodeReading
            electrode={electrode}
            kohm={kohm}
            level={kohm === undefined ? undefined : levelOf(electrode, kohm, props)}
          />
        );
      }}
    />
  );
}
