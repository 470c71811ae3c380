/** computeReadiness: item statuses by precedence, standard and report counts (readiness.md). */
import { roundFractionToTenths } from '../rounding.js';
import { AUTOMATIC_CHECKS } from './checks.js';
import type { ItemStatus, ReadinessInput, ReadinessReport, ReportItem, Rubric, StandardStatus } from './types.js';

/** The percentage 100 * n / d, rounded like every percentage (half-up to tenths, exactly). */
export function roundHalfUp1(numerator: number, denominator: number): number {
  return roundFractionToTenths(100 * numerator, denominator);
}

const COUNTS = new Set<ItemStatus>(['met', 'attested']);

export function computeReadiness(input: ReadinessInput): ReadinessReport {
  const findings = new Map(input.findings.map((f) => [f.itemId, f]));
  const attestations = new Map(input.attestations.map((a) => [a.itemId, a]));
  let met = 0;
  let applicable = 0;
  let needsReview = 0;
  let blocked = false;

  const standards = input.rubric.standards.map((standard) => {
    let sMet = 0;
    let sApplicable = 0;
    let likely = false;
    const items: ReportItem[] = standard.items.map((item) => {
      // An automatic item is decided by its check; an ai or human item may name a check too,
      // and then borrows only its applicability (2.2 applies when the course has modules).
      const check = item.check ? AUTOMATIC_CHECKS[item.check] : undefined;
      const ran = check ? check(input) : { applicable: true, problems: [] };
      const result = item.kind === 'automatic' ? ran : { applicable: ran.applicable, problems: [] };
      const finding = item.kind === 'ai' ? (findings.get(item.itemId) ?? null) : null;
      const attestation = attestations.get(item.itemId) ?? null;
      let status: ItemStatus;
      if (!result.applicable) status = 'not-applicable';
      else if (attestation) status = 'attested';
      else if (item.kind === 'automatic') status = check ? (result.problems.length === 0 ? 'met' : 'not-met') : 'pending';
      else if (item.kind === 'ai' && finding && finding.state !== 'rejected') {
        status = finding.state === 'accepted' ? (finding.verdict === 'met' ? 'met' : 'not-met') : finding.verdict === 'met' ? 'likely-met' : 'likely-not-met';
      } else status = 'pending';

      if (status !== 'not-applicable') {
        sApplicable++;
        if (COUNTS.has(status)) sMet++;
        else if (item.essential) blocked = true;
      }
      if (status === 'likely-met' || status === 'likely-not-met') {
        likely = true;
        needsReview++;
      }
      const { itemId: _f, ...findingOut } = finding ?? { itemId: '' };
      const { itemId: _a, ...attestationOut } = attestation ?? { itemId: '' };
      return {
        itemId: item.itemId,
        number: item.number,
        text: item.text,
        kind: item.kind,
        essential: item.essential,
        status,
        evidence: result.problems.map((p) => p.evidence),
        fixes: result.problems.map((p) => p.fix),
        finding: finding ? (findingOut as ReportItem['finding']) : null,
        attestation: attestation ? (attestationOut as ReportItem['attestation']) : null,
      };
    });
    met += sMet;
    applicable += sApplicable;
    const status: StandardStatus = sApplicable === 0 ? 'not-applicable' : sMet === sApplicable ? 'met' : likely ? 'needs-review' : 'not-met';
    return { standardId: standard.standardId, number: standard.number, title: standard.title, met: sMet, applicable: sApplicable, status, items };
  });

  const percent = applicable === 0 ? 100 : roundHalfUp1(met, applicable);
  if (input.accessFloor !== null && input.accessFloor > percent) blocked = true;
  return {
    courseId: input.course.id,
    rubricId: input.rubric.id,
    rubricName: input.rubric.name,
    attribution: input.rubric.attribution,
    computedAt: input.now,
    met,
    applicable,
    percent,
    needsReview,
    standards,
    blocksPublishing: blocked,
  };
}

/** Numbers of the applicable essential items that are not met or attested. */
export function blockingItemNumbers(report: ReadinessReport, rubric: Rubric): string[] {
  const essential = new Set(rubric.standards.flatMap((s) => s.items.filter((i) => i.essential).map((i) => i.itemId)));
  return report.standards
    .flatMap((s) => s.items)
    .filter((i) => essential.has(i.itemId) && i.status !== 'not-applicable' && !COUNTS.has(i.status))
    .map((i) => i.number);
}
