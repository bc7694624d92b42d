/** The printed report's style: A4 with margins, system fonts (nothing fetched), tables that do not split a row across pages. */
export const REPORT_CSS = `
@page { size: A4; margin: 14mm 13mm 16mm; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; font: 10pt/1.4 "Helvetica Neue", Helvetica, Arial, "Liberation Sans", sans-serif; color: #1d2330; background: #fff; }
main { max-width: 184mm; margin: 0 auto; }
@media screen { main { padding: 12mm 0; } }
header { border-bottom: 2px solid #1d4ed8; padding-bottom: 8px; margin-bottom: 14px; }
.agency { font-size: 9pt; font-weight: 700; letter-spacing: .08em; text-transform: uppercase; color: #1d4ed8; }
h1 { font-size: 20pt; margin: 4px 0 0; }
.domain { color: #5b6475; }
.period { margin: 6px 0 0; }
h2 { font-size: 12.5pt; margin: 0 0 6px; color: #1d4ed8; break-after: avoid; }
h3 { font-size: 10pt; margin: 0 0 4px; break-after: avoid; }
section { margin: 0 0 14px; break-inside: avoid-page; }
.tiles { display: grid; grid-template-columns: repeat(4, 1fr); gap: 8px; }
.tile { border: 1px solid #d5dae3; border-radius: 6px; padding: 8px 10px; }
.tile .label { font-size: 8.5pt; color: #5b6475; }
.tile .value { font-size: 17pt; font-weight: 700; margin: 2px 0; }
.tile .was { font-size: 8.5pt; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 14px; margin-bottom: 10px; }
.pair > section { margin-bottom: 14px; }
.half { min-width: 0; }
table { width: 100%; border-collapse: collapse; font-size: 9pt; }
thead { display: table-header-group; }
tr { break-inside: avoid; }
th { text-align: left; font-weight: 600; color: #5b6475; border-bottom: 1px solid #aab2c0; padding: 3px 4px; }
td { border-bottom: 1px solid #e6e9ef; padding: 3px 4px; vertical-align: top; }
.num { text-align: right; white-space: nowrap; }
.nowrap { white-space: nowrap; }
.key { overflow-wrap: anywhere; }
.cap { text-transform: capitalize; }
.good { color: #137333; font-weight: 600; }
.bad { color: #b3261e; font-weight: 600; }
.flat { color: #5b6475; }
.muted { color: #5b6475; font-weight: 400; }
.empty { color: #5b6475; font-style: italic; margin: 2px 0; }
.note { color: #5b6475; font-size: 8.5pt; margin: 4px 0 0; }
.intro { margin: 0 0 6px; }
.health { display: flex; gap: 14px; align-items: flex-start; }
.health p { margin: 0 0 4px; }
.score .big { font-size: 30pt; font-weight: 700; line-height: 1; }
.bars rect { fill: #1d4ed8; }
.bars text { font-size: 8px; fill: #5b6475; }
.bars text.v { fill: #1d2330; font-weight: 600; }
.sev { display: inline-block; padding: 0 5px; border-radius: 3px; font-size: 8pt; font-weight: 600; color: #fff; }
.sev.critical { background: #7f1d1d; } .sev.error { background: #b3261e; } .sev.warning { background: #b45309; } .sev.notice { background: #5b6475; }
footer { margin-top: 16px; border-top: 1px solid #d5dae3; padding-top: 6px; font-size: 8pt; color: #5b6475; }
`;
