/**
 * Who may call what: one row per operation (errors-and-auth.md, "Who may do what").
 * A route cannot be registered without a row here (define.ts looks it up and fails at
 * start-up otherwise), so every operation goes through the same checks in local and
 * remote mode. `rule` is implemented in access.ts; `via` names where the resource id comes
 * from (a path parameter, or `body.x` for rules checked after validation).
 */
import type { Scope } from '../schemas/people.js';

export type Rule =
  | 'public' // no credential at all
  | 'authenticated' // any signed-in user; the handler filters what it returns
  | 'admin'
  | 'course:read' // instructors, reviewers, students (published items only), admins
  | 'course:staff' // instructors, reviewers, admins
  | 'course:write' // instructors, admins
  | 'course:author' // as course:write; a course that does not exist yet: whoever may create courses (admins) (#14)
  | 'course:grade' // instructors, admins (see docs/decisions.md: admins may grade)
  | 'course:submit' // students of the course, published assignments only
  | 'submission:read' // the submitting student, the course's instructors, admins
  | 'certificate:read' // learner, learner's managers (transitively), course instructors, admins
  | 'certificate:replace' // readable as above, and an instructor of its course or an admin
  | 'template:write' // admins, or the owner of a user-owned template
  | 'self' // the user named by the path, or admins
  | 'token:owner'; // the token's owner, or admins

export interface Policy {
  scope: Scope | null;
  rule: Rule;
  via?: string;
}

const p = (scope: Scope | null, rule: Rule, via?: string): Policy => (via ? { scope, rule, via } : { scope, rule });

export const POLICIES = {
  // service
  health: p(null, 'public'),
  openapi: p(null, 'public'),
  reset: p('*', 'admin'),
  importDataset: p('*', 'admin'),
  dumpDataset: p('*', 'admin'),
  whoAmI: p(null, 'authenticated'),

  // people
  listUsers: p('people:read', 'admin'),
  createUser: p('people:write', 'admin'),
  getUser: p('people:read', 'self', 'userId'),
  updateUser: p('people:write', 'admin'),
  listEnrollments: p('people:read', 'course:staff', 'courseId'),
  createEnrollment: p('people:write', 'course:write', 'courseId'),
  deleteEnrollment: p('people:write', 'course:write', 'courseId'),
  listTokens: p(null, 'authenticated'),
  createToken: p(null, 'authenticated'),
  revokeToken: p(null, 'token:owner', 'tokenId'),
  listReportingLines: p('people:read', 'authenticated'),
  addReportingLine: p('people:write', 'admin'),
  removeReportingLine: p('people:write', 'admin'),

  // courses and modules
  listCourses: p('content:read', 'authenticated'),
  createCourse: p('content:write', 'admin'),
  getCourse: p('content:read', 'course:read', 'courseId'),
  updateCourse: p('content:write', 'course:write', 'courseId'),
  publishCourse: p('content:write', 'course:write', 'courseId'),
  exportCourse: p('content:read', 'course:write', 'courseId'),
  importCourse: p('content:write', 'admin'),
  listModules: p('content:read', 'course:read', 'courseId'),
  createModule: p('content:write', 'course:write', 'courseId'),
  getModule: p('content:read', 'course:read', 'moduleId'),
  updateModule: p('content:write', 'course:write', 'moduleId'),

  // lessons and blocks
  createLesson: p('content:write', 'course:write', 'moduleId'),
  listLessons: p('content:read', 'course:read', 'moduleId'),
  getLesson: p('content:read', 'course:read', 'lessonId'),
  updateLesson: p('content:write', 'course:write', 'lessonId'),
  publishLesson: p('content:write', 'course:write', 'lessonId'),
  listBlocks: p('content:read', 'course:read', 'lessonId'),
  addBlock: p('content:write', 'course:write', 'lessonId'),
  getBlock: p('content:read', 'course:read', 'blockId'),
  updateBlock: p('content:write', 'course:write', 'blockId'),
  moveBlock: p('content:write', 'course:write', 'blockId'),
  deleteBlock: p('content:write', 'course:write', 'blockId'),
  reviewBlock: p('content:write', 'course:write', 'blockId'),

  // assignments and submissions
  listCourseAssignments: p('content:read', 'course:read', 'courseId'),
  createAssignment: p('content:write', 'course:write', 'moduleId'),
  getAssignment: p('content:read', 'course:read', 'assignmentId'),
  updateAssignment: p('content:write', 'course:write', 'assignmentId'),
  publishAssignment: p('content:write', 'course:write', 'assignmentId'),
  unpublishAssignment: p('content:write', 'course:write', 'assignmentId'),
  createSubmission: p('submissions:write', 'course:submit', 'assignmentId'),
  listSubmissions: p('content:read', 'course:read', 'assignmentId'),
  getSubmission: p('content:read', 'submission:read', 'submissionId'),
  gradeSubmission: p('gradebook:write', 'course:grade', 'submissionId'),
  releaseSubmission: p('gradebook:write', 'course:grade', 'submissionId'),

  // gradebook
  getGradebookSetup: p('gradebook:read', 'course:write', 'courseId'),
  replaceGradebookSetup: p('gradebook:write', 'course:write', 'courseId'),
  listSetupChecks: p('gradebook:read', 'course:write', 'courseId'),
  dismissSetupCheck: p('gradebook:write', 'course:write', 'courseId'),
  undismissSetupCheck: p('gradebook:write', 'course:write', 'courseId'),
  getCourseGrades: p('gradebook:read', 'course:write', 'courseId'),
  setFinalGrade: p('gradebook:write', 'course:write', 'courseId'),
  getFinalGradeHistory: p('gradebook:read', 'course:write', 'courseId'),
  exportGradebook: p('gradebook:read', 'course:write', 'courseId'),
  getMyGrades: p('gradebook:read', 'course:submit', 'courseId'),

  // readiness
  getReadiness: p('readiness:read', 'course:staff', 'courseId'),
  setAttestation: p('readiness:attest', 'course:staff', 'courseId'),
  withdrawAttestation: p('readiness:attest', 'course:staff', 'courseId'),
  listFindings: p('readiness:read', 'course:staff', 'courseId'),
  putFinding: p('readiness:attest', 'course:write', 'courseId'),
  reviewFinding: p('readiness:attest', 'course:staff', 'courseId'),
  listRubrics: p('readiness:read', 'authenticated'),
  getRubric: p('readiness:read', 'authenticated'),
  importRubric: p('readiness:attest', 'admin'),

  // templates
  listTemplates: p('templates:read', 'authenticated'),
  getTemplate: p('templates:read', 'authenticated'),
  createTemplate: p('templates:write', 'authenticated'),
  updateTemplate: p('templates:write', 'template:write', 'templateId'),
  bulkUpdateTemplates: p('templates:write', 'authenticated'), // and each update as updateTemplate (routes/templates.ts)
  createCourseFromTemplate: p('content:write', 'admin'),

  // certificates
  listCertificates: p('certificates:read', 'authenticated'),
  issueCertificate: p('certificates:write', 'course:write', 'body.courseId'),
  getCertificate: p('certificates:read', 'certificate:read', 'certificateId'),
  replaceCertificate: p('certificates:write', 'certificate:replace', 'certificateId'),
  verifyCertificate: p('certificates:read', 'authenticated'),

  // fixture control (#16): serve --allow-admin only, admins with a full-scope credential
  listRequests: p('*', 'admin'),
  countRequests: p('*', 'admin'),
  clearRequests: p('*', 'admin'),
  listFaults: p('*', 'admin'),
  addFault: p('*', 'admin'),
  clearFaults: p('*', 'admin'),
  deleteFault: p('*', 'admin'),
  getClock: p('*', 'admin'),
  setClock: p('*', 'admin'),
  advanceClock: p('*', 'admin'),
  // #14 offline authoring round trip and the content lifecycle
  getCourseContent: p('content:read', 'course:write', 'courseId'),
  putCourseContent: p('content:write', 'course:author', 'courseId'),
  getSyncMark: p('content:read', 'course:write', 'courseId'),
  putSyncMark: p('content:write', 'course:write', 'courseId'),
  unpublishCourse: p('content:write', 'course:write', 'courseId'),
  publishModule: p('content:write', 'course:write', 'moduleId'),
  unpublishModule: p('content:write', 'course:write', 'moduleId'),
  deleteModule: p('content:write', 'course:write', 'moduleId'),
  unpublishLesson: p('content:write', 'course:write', 'lessonId'),
  deleteLesson: p('content:write', 'course:write', 'lessonId'),
  deleteAssignment: p('content:write', 'course:write', 'assignmentId'),
  // gradebook categories and grades import (issue #13)
  removeGradebookCategory: p('gradebook:write', 'course:write', 'courseId'),
  setAssignmentsCategory: p('content:write', 'course:write', 'courseId'),
  importGrades: p('gradebook:write', 'course:grade', 'courseId'),
} satisfies Record<string, Policy>;

export type OperationId = keyof typeof POLICIES;
