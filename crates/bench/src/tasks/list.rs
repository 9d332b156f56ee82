//! The tasks, each written once as intents on semantic targets (what a model decides), with the check
//! of its success in the application's own state. Django's admin carries the kinds of step an agent
//! meets in admin pages (sign in, two list boxes, a bulk action and its confirmation page, date and
//! time widgets, save and continue, filter boxes that react to typing, sign out); Trac adds another
//! application's forms (a ticket form of selects, a date field, a permission table of checkboxes by
//! row, a wiki editor). Tasks run in this order: the first signs in, the last of Django's signs out.

use super::apps::App;
use super::text::{Role, Target};

/// One step as an agent means it; the adapters turn it into each tool's calls (`super::agent`).
#[derive(Debug, Clone)]
pub enum Intent {
    /// Load a page of the application (a path, from its base URL).
    Open(&'static str),
    /// Type into a field; `keys`: the page reacts to key presses there (a filter box), so a tool
    /// that has a slower key-by-key option uses it.
    Type {
        /// The field.
        target: Target,
        /// What to type.
        text: &'static str,
        /// The page listens for keys in this field.
        keys: bool,
    },
    /// Several fields of one form at once: text fields, selects (by option label), checkboxes
    /// (`"true"`/`"false"`).
    Fill(Vec<(Target, &'static str)>),
    /// Click a button or a link.
    Click(Target),
    /// Choose an option (by its label) of a combobox or a listbox.
    Select(Target, &'static str),
    /// Set a checkbox to checked (`true`) or unchecked.
    Check(Target, bool),
    /// Press a key in the focused element.
    Press(&'static str),
    /// The agent makes sure the page says this before going on (read from the tool's text).
    Expect(&'static str),
}

/// One task.
#[derive(Debug, Clone)]
pub struct Task {
    /// A short id for the tables (`django-login`).
    pub id: &'static str,
    /// What it does, in a few words.
    pub what: &'static str,
    /// Where it runs.
    pub app: App,
    /// The steps.
    pub steps: Vec<Intent>,
    /// Python that sets `ok` (and `why`) from the application's state (`super::apps::Instance::check`).
    pub check: &'static str,
}

use Intent::*;

const fn tb(name: &'static str) -> Target {
    Target::new(Role::Textbox, name)
}
const fn button(name: &'static str) -> Target {
    Target::new(Role::Button, name)
}
const fn link(name: &'static str) -> Target {
    Target::new(Role::Link, name)
}
const fn combo(name: &'static str) -> Target {
    Target::new(Role::Combobox, name)
}
const fn listbox(name: &'static str) -> Target {
    Target::new(Role::Listbox, name)
}
const fn checkbox(name: &'static str) -> Target {
    Target::new(Role::Checkbox, name)
}
/// Type `text` into `target`.
const fn type_in(target: Target, text: &'static str) -> Intent {
    Type {
        target,
        text,
        keys: false,
    }
}
/// Type `text` into a `target` whose page reacts to each key (a filter box).
const fn type_keys(target: Target, text: &'static str) -> Intent {
    Type {
        target,
        text,
        keys: true,
    }
}

/// Every task, in the order they run.
pub fn all() -> Vec<Task> {
    let saved = Expect("was changed successfully");
    vec![
        Task {
            id: "django-login",
            what: "sign in to the admin",
            app: App::Django,
            steps: vec![
                Open("/admin/"),
                Fill(vec![(tb("Username"), "admin"), (tb("Password"), "Bench-admin-2026")]),
                Click(button("Log in")),
                Expect("Site administration"),
            ],
            check: "admin = User.objects.get(username='admin')\n\
                    ok = any(s.get_decoded().get('_auth_user_id') == str(admin.pk) for s in Session.objects.all())\n\
                    why = 'no session of admin'",
        },
        Task {
            id: "django-add-user",
            what: "add a user, then move a group into Chosen groups (two list boxes)",
            app: App::Django,
            steps: vec![
                Open("/admin/auth/user/add/"),
                Fill(vec![
                    (tb("Username"), "dora"),
                    (tb("Password"), "Dora-pass-2026"),
                    (tb("Password confirmation"), "Dora-pass-2026"),
                ]),
                Click(button("Save")),
                Expect("was added successfully"),
                Select(listbox("Available groups"), "editors"),
                Click(button("Choose selected groups")),
                Click(button("Save")),
                saved.clone(),
            ],
            check: "u = User.objects.filter(username='dora').first()\n\
                    groups = sorted(g.name for g in u.groups.all()) if u else None\n\
                    ok = bool(u) and u.check_password('Dora-pass-2026') and groups == ['editors']\n\
                    why = f'user {u}, groups {groups}'",
        },
        Task {
            id: "django-bulk-delete",
            what: "search users, tick two rows, run the delete action and confirm",
            app: App::Django,
            steps: vec![
                Open("/admin/auth/user/"),
                type_in(tb("Search"), "bob"),
                Press("Enter"),
                Expect("bobby@example.org"),
                Check(checkbox("Select this object for an action - bob"), true),
                Check(checkbox("Select this object for an action - bobby"), true),
                Select(combo("Action"), "Delete selected users"),
                Click(button("Go")),
                Expect("Are you sure you want to delete the selected users"),
                Click(button("Yes, I'm sure")),
                Expect("Successfully deleted 2 users"),
            ],
            check: "names = sorted(User.objects.values_list('username', flat=True))\n\
                    ok = 'bob' not in names and 'bobby' not in names and 'carol' in names and 'alice' in names\n\
                    why = f'users now {names}'",
        },
        Task {
            id: "django-dates",
            what: "date and time widgets: type a date joined, set last login with Today and Now",
            app: App::Django,
            steps: vec![
                Open("/admin/auth/user/"),
                Click(link("alice")),
                type_in(tb("").after("Date joined"), "2025-02-14"),
                type_in(tb("").after("Date joined").second(), "09:30:00"),
                Click(link("Today").after("Last login")),
                Click(link("Now").after("Last login")),
                Click(button("Save")),
                saved.clone(),
            ],
            check: "import datetime\n\
                    u = User.objects.get(username='alice')\n\
                    today = datetime.datetime.now(datetime.timezone.utc).date()\n\
                    joined = u.date_joined.strftime('%Y-%m-%d %H:%M')\n\
                    ok = joined == '2025-02-14 09:30' and u.last_login is not None and abs((u.last_login.date() - today).days) <= 1\n\
                    why = f'date joined {joined}, last login {u.last_login}'",
        },
        Task {
            id: "django-save-continue",
            what: "edit a user's names, save and continue editing, then tick staff status and save",
            app: App::Django,
            steps: vec![
                Open("/admin/auth/user/"),
                Click(link("carol")),
                Fill(vec![
                    (tb("First name"), "Carol"),
                    (tb("Last name"), "Cooper"),
                    (tb("Email address"), "carol.cooper@example.org"),
                ]),
                Click(button("Save and continue editing")),
                Expect("You may edit it again below"),
                Check(checkbox("Staff status"), true),
                Click(button("Save")),
                saved.clone(),
            ],
            check: "u = User.objects.get(username='carol')\n\
                    ok = (u.first_name, u.last_name, u.email, u.is_staff) == ('Carol', 'Cooper', 'carol.cooper@example.org', True)\n\
                    why = f'{u.first_name!r} {u.last_name!r} {u.email!r} staff={u.is_staff}'",
        },
        Task {
            id: "django-group-filter",
            what: "a permission filter box: filter a group's available permissions by typing, choose all shown",
            app: App::Django,
            steps: vec![
                Open("/admin/auth/group/"),
                Click(link("reviewers")),
                type_keys(tb("").before(Role::Listbox, "Available permissions"), "log entry"),
                Click(button("Choose all permissions")),
                Click(button("Save")),
                saved.clone(),
            ],
            check: "perms = sorted(Group.objects.get(name='reviewers').permissions.values_list('codename', flat=True))\n\
                    ok = perms == ['add_logentry', 'change_logentry', 'delete_logentry', 'view_logentry']\n\
                    why = f'{len(perms)} permissions: {perms[:6]}'",
        },
        Task {
            id: "django-remove-group",
            what: "move a group back from Chosen groups to Available groups and save",
            app: App::Django,
            steps: vec![
                Open("/admin/auth/user/"),
                Click(link("alice")),
                Select(listbox("Chosen groups"), "reviewers"),
                Click(button("Remove selected groups")),
                Click(button("Save")),
                saved.clone(),
            ],
            check: "groups = sorted(g.name for g in User.objects.get(username='alice').groups.all())\n\
                    ok = groups == ['editors']\n\
                    why = f'groups {groups}'",
        },
        Task {
            id: "django-user-perms",
            what: "a user's permission filter box: filter by typing, choose all shown, save",
            app: App::Django,
            steps: vec![
                Open("/admin/auth/user/"),
                Click(link("dora")),
                type_keys(tb("").before(Role::Listbox, "Available user permissions"), "session"),
                Click(button("Choose all user permissions")),
                Click(button("Save")),
                saved,
            ],
            check: "u = User.objects.filter(username='dora').first()\n\
                    perms = sorted(u.user_permissions.values_list('codename', flat=True)) if u else None\n\
                    ok = perms == ['add_session', 'change_session', 'delete_session', 'view_session']\n\
                    why = f'permissions {perms if perms is None else perms[:6]}'",
        },
        Task {
            id: "django-logout",
            what: "sign out",
            app: App::Django,
            steps: vec![
                Open("/admin/"),
                Click(button("Log out")),
                Expect("Logged out"),
            ],
            check: "admin = User.objects.get(username='admin')\n\
                    ok = not any(s.get_decoded().get('_auth_user_id') == str(admin.pk) for s in Session.objects.all())\n\
                    why = 'admin still has a session'",
        },
        Task {
            id: "trac-new-ticket",
            what: "file a ticket: summary, description and three selects",
            app: App::Trac,
            steps: vec![
                Open("/newticket"),
                Fill(vec![
                    (tb("Summary"), "Export fails on large files"),
                    (tb("Description"), "Exporting a 2 GB project stops at 50 %."),
                    (combo("Type"), "enhancement"),
                    (combo("Priority"), "critical"),
                    (combo("Component"), "component2"),
                ]),
                Click(button("Create ticket")),
                Expect("Export fails on large files"),
            ],
            check: "rows = env.db_query(\"SELECT type, priority, component FROM ticket WHERE summary=%s\", ('Export fails on large files',))\n\
                    ok = rows == [('enhancement', 'critical', 'component2')]\n\
                    why = f'tickets {rows}'",
        },
        Task {
            id: "trac-milestone",
            what: "add a milestone with a due date (a date-time picker field)",
            app: App::Trac,
            steps: vec![
                Open("/admin/ticket/milestones"),
                Fill(vec![(tb("Name"), "v2.0"), (tb("Due"), "2027-03-15T12:00:00Z")]),
                Click(button("Add")),
                Expect("v2.0"),
            ],
            check: "from trac.util.datefmt import from_utimestamp\n\
                    rows = env.db_query(\"SELECT due FROM milestone WHERE name='v2.0'\")\n\
                    due = from_utimestamp(rows[0][0]).strftime('%Y-%m-%d') if rows and rows[0][0] else None\n\
                    ok = due == '2027-03-15'\n\
                    why = f'milestone rows {rows}, due {due}'",
        },
        Task {
            id: "trac-permissions",
            what: "grant a permission, then untick one in a subject's row and remove it",
            app: App::Trac,
            steps: vec![
                Open("/admin/general/perm"),
                type_in(tb("Subject").after("Grant Permission"), "developer"),
                Select(combo("Action"), "TICKET_MODIFY"),
                Click(button("Add").after("Grant Permission")),
                Expect("TICKET_MODIFY"),
                Check(checkbox("WIKI_CREATE").in_row("developer"), true),
                Click(button("Remove selected items")),
                Expect("The selected permissions have been revoked"),
            ],
            check: "from trac.perm import PermissionSystem\n\
                    perms = sorted(a for s, a in PermissionSystem(env).get_all_permissions() if s == 'developer')\n\
                    other = [a for s, a in PermissionSystem(env).get_all_permissions() if s == 'authenticated' and a == 'WIKI_CREATE']\n\
                    ok = perms == ['TICKET_MODIFY', 'WIKI_MODIFY'] and other == ['WIKI_CREATE']\n\
                    why = f'developer has {perms}, authenticated WIKI_CREATE {other}'",
        },
        Task {
            id: "trac-wiki-page",
            what: "create a wiki page with a change comment",
            app: App::Trac,
            steps: vec![
                Open("/wiki/BenchNotes"),
                Click(button("Create this page")),
                type_in(tb("").after("Editing"), "= Bench notes =\nThe release checklist lives here."),
                type_in(tb("Comment about this change"), "first notes"),
                Click(button("Submit changes")),
                Expect("The release checklist lives here."),
            ],
            check: "rows = env.db_query(\"SELECT text, comment FROM wiki WHERE name='BenchNotes'\")\n\
                    ok = len(rows) == 1 and 'release checklist' in rows[0][0] and rows[0][1] == 'first notes'\n\
                    why = f'wiki rows {rows}'",
        },
    ]
}
