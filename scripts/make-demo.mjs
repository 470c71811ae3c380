#!/usr/bin/env node
// Writes data/demo.json: a realistic, deterministic demo course (seeded PRNG, fixed dates).
// Run `npm run demo:generate` after changing it; the output is committed.

let seed = 20261122;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = (list) => list[Math.floor(rand() * list.length)];
const pad = (n, w = 2) => String(n).padStart(w, '0');

const FIRST = [
  'Amara',
  'Bao',
  'Carmen',
  'Dmitri',
  'Elif',
  'Farah',
  'Gustavo',
  'Hana',
  'Ibrahim',
  'Jonas',
  'Keira',
  'Liam',
  'Mei',
  'Nikhil',
  'Olga',
  'Priya',
  'Quinn',
  'Rafael',
  'Sofia',
  'Tariq',
  'Uma',
  'Viktor',
  'Wen',
  'Ximena',
  'Yusuf',
];
const LAST = [
  'Okafor',
  'Nguyen',
  'Ruiz',
  'Volkov',
  'Demir',
  'Haddad',
  'Pereira',
  'Sato',
  'Khan',
  'Berg',
  'Walsh',
  'Murphy',
  'Lin',
  'Rao',
  'Ivanova',
  'Shah',
  'Taylor',
  'Costa',
  'Rossi',
  'Aziz',
  'Menon',
  'Novak',
  'Zhao',
  'Flores',
  'Yilmaz',
];

const users = [
  { id: 'usr_admin', name: 'Dana Admin', email: 'admin@demo.example', admin: true },
  { id: 'usr_instructor', name: 'Ines Instructor', email: 'ines@demo.example', admin: false },
  { id: 'usr_reviewer', name: 'Rob Reviewer', email: 'rob@demo.example', admin: false },
  { id: 'usr_manager', name: 'Mona Manager', email: 'mona@demo.example', admin: false },
];
const students = FIRST.map((f, i) => ({
  id: `usr_s${pad(i + 1)}`,
  name: `${f} ${LAST[i]}`,
  email: `${f.toLowerCase()}.${LAST[i].toLowerCase()}@demo.example`,
  admin: false,
}));
users.push(...students);

const tokens = [
  { id: 'tok_demo_admin', token: 'demo-admin-token', userId: 'usr_admin', scopes: ['*'], name: 'demo admin' },
  { id: 'tok_demo_instructor', token: 'demo-instructor-token', userId: 'usr_instructor', scopes: ['*'], name: 'demo instructor' },
  {
    id: 'tok_demo_reviewer',
    token: 'demo-reviewer-token',
    userId: 'usr_reviewer',
    scopes: ['content:read', 'readiness:read', 'readiness:attest'],
    name: 'demo reviewer',
  },
  {
    id: 'tok_demo_student',
    token: 'demo-student-token',
    userId: 'usr_s01',
    // gradebook:read lets the student read their own grades (GET .../gradebook/me); the
    // staff views still need an instructor's role in the course.
    scopes: ['content:read', 'submissions:write', 'gradebook:read', 'certificates:read'],
    name: 'demo student',
  },
];

const C = 'crs_data101';
const courses = [
  {
    id: C,
    title: 'Data Literacy 101',
    description:
      'Data Literacy 101 teaches how to read, question and present everyday data. It is organised in three modules: finding and cleaning data, summarising it with simple statistics, and telling an honest story with charts. Each module has short lessons and a graded assignment.',
    status: 'draft',
    objectives: ['Clean a small real data set', 'Summarise data with the right statistic', 'Present a finding with an honest chart'],
    rubricId: 'course-essentials',
    createdAt: '2026-08-01T09:00:00.000Z',
    updatedAt: '2026-08-01T09:00:00.000Z',
  },
];

const enrollments = [
  { courseId: C, userId: 'usr_instructor', role: 'instructor' },
  { courseId: C, userId: 'usr_reviewer', role: 'reviewer' },
  ...students.map((s) => ({ courseId: C, userId: s.id, role: 'student' })),
];

const modules = [
  {
    id: 'mod_01',
    courseId: C,
    title: 'Finding and cleaning data',
    objective: 'Identify and fix the five most common problems in a raw data table.',
    position: 0,
    status: 'published',
  },
  {
    id: 'mod_02',
    courseId: C,
    title: 'Summarising data',
    objective: 'Choose and compute the mean, median or mode that fits a question.',
    position: 1,
    status: 'published',
  },
  {
    id: 'mod_03',
    courseId: C,
    title: 'Telling the story',
    objective: 'Build a chart that answers one question without misleading.',
    position: 2,
    status: 'draft',
  },
];

const lessons = [];
const blocks = [];
let blockN = 0;
const block = (lessonId, position, content, extra = {}) => {
  blockN += 1;
  blocks.push({
    id: `blk_${pad(blockN, 3)}`,
    lessonId,
    position,
    origin: 'human',
    aiState: null,
    provenance: null,
    previous: null,
    updatedAt: '2026-08-02T10:00:00.000Z',
    ...content,
    ...extra,
  });
};
const lesson = (id, moduleId, position, title, minutes, status, content) => {
  lessons.push({ id, moduleId, courseId: C, title, minutes, position, status, publishedAt: status === 'published' ? '2026-08-03T09:00:00.000Z' : null });
  content.forEach((c, i) => block(id, i, c.content ?? c, c.extra ?? {}));
};

lesson('les_01', 'mod_01', 0, 'Welcome and how this course works', 15, 'published', [
  { type: 'heading', level: 1, text: 'Welcome to Data Literacy 101' },
  { type: 'paragraph', text: 'Each week has two short lessons and one assignment. Post questions in the forum; office hours are Tuesdays 16:00-17:00 UTC.' },
  { type: 'callout', tone: 'info', text: 'All deadlines are at 23:59 UTC. Late work loses 10% per day, for at most 5 days.' },
  { type: 'link', url: 'https://support.demo.example/accessibility', text: 'Accessibility and technical support' },
]);
lesson('les_02', 'mod_01', 1, 'Spotting dirty data', 30, 'published', [
  { type: 'heading', level: 2, text: 'Five kinds of dirt' },
  { type: 'list', ordered: true, items: ['Missing values', 'Duplicates', 'Inconsistent units', 'Typos in categories', 'Outliers from data entry'] },
  {
    type: 'image',
    url: 'https://cdn.demo.example/dirty-table.png',
    alt: 'A spreadsheet with blank cells and duplicated rows highlighted in red',
    decorative: false,
  },
  { type: 'code', language: 'python', text: "df.drop_duplicates().dropna(subset=['age'])" },
]);
lesson('les_03', 'mod_02', 0, 'Mean, median and mode', 25, 'published', [
  { type: 'heading', level: 2, text: 'Which average?' },
  { type: 'paragraph', text: 'The mean is pulled by outliers; the median is not. The mode is for categories.' },
  { type: 'video', url: 'https://video.demo.example/averages', captions: 'https://video.demo.example/averages.vtt', durationSeconds: 420 },
  { type: 'quote', text: 'The average human has one breast and one testicle.', cite: 'Des MacHale' },
]);
lesson('les_04', 'mod_02', 1, 'Spread and variation', 25, 'published', [
  { type: 'heading', level: 2, text: 'Spread matters' },
  { type: 'paragraph', text: 'Two classes with the same mean can have very different ranges.' },
  { type: 'embed', url: 'https://apps.demo.example/spread-explorer', title: 'Spread explorer', privacyUrl: 'https://apps.demo.example/privacy' },
  { type: 'divider' },
  {
    content: { type: 'paragraph', text: 'Try it: drag the slider until the standard deviation doubles, and watch the histogram widen.' },
    extra: {
      origin: 'ai',
      aiState: 'draft',
      provenance: {
        model: 'demo-model-1',
        task: 'brief',
        generatedAt: '2026-08-04T12:00:00.000Z',
        sources: [{ id: 'les_04', name: 'Spread and variation' }],
        summary: 'Suggested an exercise for the embed.',
      },
    },
  },
]);
lesson('les_05', 'mod_03', 0, 'Charts that do not lie', 35, 'draft', [
  { type: 'heading', level: 2, text: 'Honest axes' },
  { type: 'paragraph', text: 'A bar chart whose axis does not start at zero exaggerates differences.' },
  { type: 'link', url: 'https://charts.demo.example/gallery', text: 'click here' },
]);

const rubric3 = (prefix, points) => [
  {
    id: `${prefix}-accuracy`,
    title: 'Accuracy',
    description: 'Results are correct.',
    levels: [
      { id: 'full', title: 'Correct', points: points * 0.5, description: 'All results correct.' },
      { id: 'partial', title: 'Mostly correct', points: points * 0.25, description: 'Minor errors.' },
      { id: 'none', title: 'Incorrect', points: 0, description: 'Major errors.' },
    ],
  },
  {
    id: `${prefix}-reasoning`,
    title: 'Reasoning',
    description: 'Choices are explained.',
    levels: [
      { id: 'full', title: 'Clear', points: points * 0.3, description: 'Every choice explained.' },
      { id: 'none', title: 'Missing', points: 0, description: 'No explanation.' },
    ],
  },
  {
    id: `${prefix}-presentation`,
    title: 'Presentation',
    description: 'Readable and tidy.',
    levels: [
      { id: 'full', title: 'Tidy', points: points * 0.2, description: 'Easy to follow.' },
      { id: 'none', title: 'Messy', points: 0, description: 'Hard to follow.' },
    ],
  },
];
const instr = (id, text) => [
  { id, type: 'paragraph', text, position: 0, origin: 'human', aiState: null, provenance: null, previous: null, updatedAt: '2026-08-02T10:00:00.000Z' },
];

const assignments = [
  {
    id: 'asg_01',
    moduleId: 'mod_01',
    title: 'Quiz: kinds of dirty data',
    position: 0,
    status: 'published',
    publishedAt: '2026-08-03T09:00:00.000Z',
    dueAt: '2026-09-07T23:59:00.000Z',
    points: 10,
    submissionType: 'text',
    categoryId: 'cat_quiz',
    rubric: rubric3('q1', 10),
    instructions: instr('blk_i01', 'Name and describe the five kinds of dirty data.'),
  },
  {
    id: 'asg_02',
    moduleId: 'mod_01',
    title: 'Clean the survey table',
    position: 1,
    status: 'published',
    publishedAt: '2026-08-03T09:00:00.000Z',
    dueAt: '2026-09-14T23:59:00.000Z',
    points: 40,
    submissionType: 'link',
    categoryId: 'cat_project',
    rubric: rubric3('p1', 40),
    instructions: instr('blk_i02', 'Share a link to your cleaned spreadsheet and a short log of each fix.'),
  },
  {
    id: 'asg_03',
    moduleId: 'mod_02',
    title: 'Quiz: averages',
    position: 0,
    status: 'published',
    publishedAt: '2026-08-03T09:00:00.000Z',
    dueAt: '2026-09-21T23:59:00.000Z',
    points: 10,
    submissionType: 'text',
    categoryId: 'cat_quiz',
    rubric: rubric3('q2', 10),
    instructions: instr('blk_i03', 'Answer the five questions about mean, median and mode.'),
  },
  {
    id: 'asg_04',
    moduleId: 'mod_02',
    title: 'Quiz: spread',
    position: 1,
    status: 'published',
    publishedAt: '2026-08-03T09:00:00.000Z',
    dueAt: '2026-09-28T23:59:00.000Z',
    points: 10,
    submissionType: 'text',
    categoryId: 'cat_quiz',
    rubric: rubric3('q3', 10),
    instructions: instr('blk_i04', 'Compute the range and standard deviation of the two samples.'),
  },
  {
    id: 'asg_05',
    moduleId: 'mod_02',
    title: 'Summary report',
    position: 2,
    status: 'published',
    publishedAt: '2026-08-03T09:00:00.000Z',
    dueAt: '2026-10-05T23:59:00.000Z',
    points: 40,
    submissionType: 'file',
    categoryId: 'cat_project',
    rubric: rubric3('p2', 40),
    instructions: instr('blk_i05', 'Upload a one-page report summarising the cleaned survey.'),
  },
  {
    id: 'asg_06',
    moduleId: 'mod_02',
    title: 'Bonus: find a misleading average in the news',
    position: 3,
    status: 'published',
    publishedAt: '2026-08-03T09:00:00.000Z',
    dueAt: '2026-10-12T23:59:00.000Z',
    points: 0,
    submissionType: 'link',
    categoryId: 'cat_quiz',
    rubric: [],
    instructions: instr('blk_i06', 'Optional: link to an article that misuses an average and explain why.'),
  },
  {
    id: 'asg_07',
    moduleId: 'mod_03',
    title: 'Final chart',
    position: 0,
    status: 'published',
    publishedAt: '2026-08-03T09:00:00.000Z',
    dueAt: '2026-12-07T23:59:00.000Z',
    points: 50,
    submissionType: 'file',
    categoryId: 'cat_final',
    rubric: rubric3('f1', 50),
    instructions: instr('blk_i07', 'Upload your final chart with a 200-word caption.'),
  },
];

const DAY = 86400000;
const submissions = [];
let subN = 0;
const iso = (ms) => new Date(ms).toISOString();
for (const s of students) {
  const ability = 0.55 + rand() * 0.45;
  for (const a of assignments) {
    const due = Date.parse(a.dueAt);
    if (due > Date.parse('2026-11-22T00:00:00.000Z')) continue; // the final is not due yet
    if (a.points === 0 && rand() < 0.7) continue; // most skip the bonus
    const r = rand();
    if (r < 0.06) continue; // missing work
    const lateDays = r > 0.9 ? 1 + Math.floor(rand() * 3) : 0;
    const submittedAt = due - Math.floor(rand() * 2 * DAY) + lateDays * DAY + (lateDays ? DAY / 2 : 0);
    subN += 1;
    const fields =
      a.submissionType === 'text'
        ? { text: 'My answers are attached above.' }
        : a.submissionType === 'link'
          ? { link: `https://drive.demo.example/${s.id}/${a.id}` }
          : { fileId: `file_${s.id}_${a.id}` };
    const ungraded = a.id === 'asg_05' && rand() < 0.15;
    const score = a.points === 0 ? pick([2, 3, 5]) : Math.round(a.points * Math.min(1, ability + (rand() - 0.5) * 0.3) * 2) / 2;
    submissions.push({
      id: `sub_${pad(subN, 3)}`,
      assignmentId: a.id,
      studentId: s.id,
      attempt: 1,
      submittedAt: iso(submittedAt),
      text: null,
      fileId: null,
      link: null,
      ...fields,
      grade: ungraded
        ? null
        : {
            score,
            criteria: [],
            feedback: score >= a.points * 0.9 ? 'Excellent work.' : 'Good effort; see the rubric notes.',
            feedbackOrigin: 'human',
            feedbackProvenance: null,
            gradedBy: 'usr_instructor',
            gradedAt: iso(due + 3 * DAY),
            releasedAt: a.id === 'asg_05' ? null : iso(due + 4 * DAY),
          },
    });
  }
}

const scheme = {
  id: 'standard',
  name: 'Standard letters',
  bands: [
    ['A', 93],
    ['A-', 90],
    ['B+', 87],
    ['B', 83],
    ['B-', 80],
    ['C+', 77],
    ['C', 73],
    ['C-', 70],
    ['D+', 67],
    ['D', 63],
    ['D-', 60],
    ['F', 0],
  ].map(([letter, min]) => ({ letter, min })),
  rounding: { decimals: 1, mode: 'half-up' },
  letterFrom: 'rounded',
};
const gradebookSetups = [
  {
    courseId: C,
    mode: 'weighted',
    categories: [
      { id: 'cat_quiz', courseId: C, name: 'Quizzes', position: 0, weight: 30, drop: { lowest: 1, highest: 0, keepAtLeast: 1 }, lateApplies: true },
      { id: 'cat_project', courseId: C, name: 'Projects', position: 1, weight: 40, drop: { lowest: 0, highest: 0, keepAtLeast: 1 }, lateApplies: true },
      { id: 'cat_final', courseId: C, name: 'Final', position: 2, weight: 30, drop: { lowest: 0, highest: 0, keepAtLeast: 1 }, lateApplies: false },
    ],
    late: { enabled: true, percentPerPeriod: 10, period: 'day', basis: 'possible', maxPeriods: 5, afterMax: 'hold-at-max', graceMinutes: 15 },
    missing: { treatAs: 'zero-after-due', droppable: false },
    extraCredit: { categoryCapPercent: 10, courseCapPoints: null },
    scheme,
    emptyCategory: 'share-weight',
    studentNotes: [{ categoryId: 'cat_quiz', text: 'Your lowest quiz score is dropped.' }],
    dismissedChecks: [],
    source: { kind: 'manual', designSessionId: null },
    version: 1,
    rulesVersion: 1,
    updatedBy: 'usr_instructor',
    updatedAt: '2026-08-01T09:00:00.000Z',
  },
];

const templates = [
  {
    id: 'tpl_standard',
    name: 'Standard 3-module course',
    description: 'Welcome module first, three content modules, a wrap-up module last.',
    owner: { kind: 'institution' },
    modules: [
      {
        key: 'welcome',
        title: 'Start here',
        placement: 'start',
        objective: 'Know how the course works and where to get help.',
        lessons: [
          {
            key: 'welcome-lesson',
            title: 'Welcome',
            minutes: 10,
            blocks: [
              { key: 'h', label: 'Title', content: { type: 'heading', level: 1, text: 'Welcome' } },
              {
                key: 'support',
                label: 'Support links',
                content: { type: 'link', url: 'https://support.demo.example', text: 'Technical and academic support' },
              },
            ],
          },
        ],
      },
      { key: 'wrap-up', title: 'Wrap-up', placement: 'end', objective: 'Reflect on what you learned.', lessons: [] },
    ],
    tutorDefaults: { lesson: 'off', assignment: 'off' },
    accessFloor: 60,
    updatedBy: 'usr_admin',
    updatedAt: '2026-07-01T09:00:00.000Z',
  },
];

const reportingLines = [
  { managerId: 'usr_manager', reportId: 'usr_s01', createdBy: 'usr_admin', createdAt: '2026-08-01T09:00:00.000Z' },
  { managerId: 'usr_manager', reportId: 'usr_s02', createdBy: 'usr_admin', createdAt: '2026-08-01T09:00:00.000Z' },
];

const certificates = [
  {
    id: 'cert_0001',
    code: 'K7M2-Q9TX-4HCD',
    userId: 'usr_s03',
    learnerName: students[2].name,
    courseId: C,
    courseTitle: 'Data Literacy 101',
    issuedAt: '2026-11-01T12:00:00.000Z',
    basis: 'tested-out',
    replaces: null,
    replacedBy: null,
    replaceReason: null,
  },
];

const dataset = {
  coursebook: 1,
  users,
  tokens,
  courses,
  enrollments,
  modules,
  lessons,
  blocks,
  assignments,
  submissions,
  gradebookSetups,
  finalGrades: [
    {
      courseId: C,
      studentId: 'usr_s07',
      letter: 'B+',
      percent: null,
      reason: 'Documented illness during the spread quiz; instructor judgement.',
      version: 1,
      updatedBy: 'usr_instructor',
      updatedAt: '2026-11-10T10:00:00.000Z',
    },
  ],
  finalGradeHistory: [
    {
      courseId: C,
      studentId: 'usr_s07',
      version: 1,
      oldLetter: null,
      oldPercent: null,
      newLetter: 'B+',
      newPercent: null,
      reason: 'Documented illness during the spread quiz; instructor judgement.',
      by: 'usr_instructor',
      at: '2026-11-10T10:00:00.000Z',
    },
  ],
  findings: [
    {
      courseId: C,
      itemId: '2.2',
      verdict: 'met',
      evidence: 'Each module objective names an observable action (identify, choose, build).',
      suggestion: '',
      provenance: {
        model: 'demo-model-1',
        task: 'readiness',
        generatedAt: '2026-08-05T12:00:00.000Z',
        sources: [{ id: 'mod_01', name: 'Finding and cleaning data' }],
        summary: 'Checked module objectives for measurable verbs.',
      },
      state: 'draft',
      reviewedBy: null,
      reviewedAt: null,
      reviewedByName: null,
    },
  ],
  attestations: [],
  templates,
  certificates,
  reportingLines,
};
process.stdout.write(JSON.stringify(dataset, null, 2) + '\n');
