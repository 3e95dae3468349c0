/** The plan templates `debussy plan new --template` offers; kept apart so the CLI can list them without loading the scaffolding code. */
export const PLAN_TEMPLATE_NAMES = ['generic', 'backend', 'frontend'] as const;

export type PlanTemplateName = (typeof PLAN_TEMPLATE_NAMES)[number];

export const DEFAULT_PLAN_TEMPLATE: PlanTemplateName = 'generic';
