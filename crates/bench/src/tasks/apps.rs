//! The real web applications the task benchmark drives, installed from PyPI into a venv under
//! `target/` by `./build.sh bench --tasks` (not written here): Django's admin (a project made by
//! `django-admin startproject`, users, groups and permissions) and Trac (tickets, wiki, admin panels).
//! Each tool gets its own copy of each application's data, made once from one seeded original, and its
//! own server on a free 127.0.0.1 port, so the three tools start every task from the same state and
//! their tasks can take turns. A task's success is read from the application's own state: a Python
//! snippet run by the application's Python against its database (Django's ORM, Trac's model API).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::process::{Child, Command};

use crate::BenchError;

/// The two applications.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum App {
    /// Django's admin (`django.contrib.admin`) on a fresh `startproject`.
    Django,
    /// Trac, one environment served by `tracd`.
    Trac,
}

/// The Django superuser the tasks sign in as.
pub const DJANGO_ADMIN: (&str, &str) = ("admin", "Bench-admin-2026");

impl App {
    /// The name in the report.
    pub fn label(self) -> &'static str {
        match self {
            App::Django => "Django admin",
            App::Trac => "Trac",
        }
    }
}

/// One running copy of an application.
pub struct Instance {
    /// Which application.
    pub app: App,
    /// `http://127.0.0.1:PORT` (no trailing slash).
    pub base: String,
    /// Its data folder (the Django project, the Trac environment).
    pub dir: PathBuf,
    python: PathBuf,
    child: Child,
}

/// The venv's `bin/` programs.
#[derive(Debug, Clone)]
pub struct Venv {
    bin: PathBuf,
}

impl Venv {
    /// The venv at `dir` (`target/tasks-venv`).
    ///
    /// Errors: when it has no Django or no Trac (`./build.sh bench --tasks` installs both).
    pub fn open(dir: &Path) -> Result<Venv, BenchError> {
        let bin = dir.join("bin");
        for program in ["python", "django-admin", "trac-admin", "tracd"] {
            if !bin.join(program).is_file() {
                return Err(BenchError::Unexpected(format!(
                    "{} is missing: ./build.sh bench --tasks installs Django and Trac into {}",
                    bin.join(program).display(),
                    dir.display()
                )));
            }
        }
        Ok(Venv { bin })
    }

    fn program(&self, name: &str) -> PathBuf {
        self.bin.join(name)
    }

    /// The versions of Django and Trac, for the report.
    pub async fn versions(&self) -> String {
        let code =
            "import django, trac; print(f'Django {django.get_version()}, Trac {trac.__version__}')";
        run(&self.program("python"), &["-c", code], None)
            .await
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|e| format!("? ({e})"))
    }
}

/// Runs `program args…` in `cwd` and returns its stdout.
///
/// Errors: when it cannot start or exits non-zero (with its stderr's tail).
async fn run(program: &Path, args: &[&str], cwd: Option<&Path>) -> Result<String, BenchError> {
    let mut command = Command::new(program);
    command.args(args).env("PYTHONWARNINGS", "ignore");
    if let Some(dir) = cwd {
        command.current_dir(dir);
    }
    let out = command
        .output()
        .await
        .map_err(|e| BenchError::io(format!("running {}", program.display()), e))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let tail: String = err.lines().rev().take(6).collect::<Vec<_>>().join(" / ");
        return Err(BenchError::Unexpected(format!(
            "{} {}: {tail}",
            program.display(),
            args.first().unwrap_or(&"")
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The Django project's seed: the superuser, three groups and four users (two named like "bob" for the
/// bulk delete, one with two groups for the move back).
const DJANGO_SEED: &str = r#"
from django.contrib.auth.models import User, Group
admin = User.objects.create_superuser("admin", "admin@example.org", "Bench-admin-2026")
editors, reviewers, publishers = (Group.objects.create(name=n) for n in ("editors", "reviewers", "publishers"))
alice = User.objects.create_user("alice", "alice@example.org", "alice-pass-2026")
alice.groups.add(editors, reviewers)
for name in ("bob", "bobby", "carol"):
    User.objects.create_user(name, f"{name}@example.org", f"{name}-pass-2026")
"#;

/// The permissions `trac-admin permission add` grants, `(user or group, action)`: anonymous may administer
/// (see [`TRAC_SEED`]), the `developer` group may edit the wiki.
const TRAC_PERMISSIONS: [(&str, &str); 3] = [
    ("anonymous", "TRAC_ADMIN"),
    ("developer", "WIKI_CREATE"),
    ("developer", "WIKI_MODIFY"),
];

/// Trac's seed: anonymous may administer (Trac signs in through HTTP authentication, which no MCP
/// tool's text can answer), a `developer` group, two tickets.
const TRAC_SEED: &str = r#"
import sys
from trac.env import Environment
from trac.ticket.model import Ticket
env = Environment(sys.argv[1])
for summary in ("Crash on start", "Slow search"):
    t = Ticket(env)
    t['summary'] = summary
    t['reporter'] = 'seed'
    t['status'] = 'new'
    t.insert()
"#;

/// Makes the seeded original of `app` in `dir` (a new folder).
///
/// Errors: when a step of the application's own setup fails.
pub async fn seed(app: App, venv: &Venv, dir: &Path) -> Result<(), BenchError> {
    let path = dir.display().to_string();
    match app {
        App::Django => {
            std::fs::create_dir_all(dir)
                .map_err(|e| BenchError::io(format!("creating {path}"), e))?;
            run(
                &venv.program("django-admin"),
                &["startproject", "benchsite", &path],
                None,
            )
            .await?;
            let settings = dir.join("benchsite").join("settings.py");
            let mut text = std::fs::read_to_string(&settings)
                .map_err(|e| BenchError::io(format!("reading {}", settings.display()), e))?;
            text.push_str("\nALLOWED_HOSTS = ['127.0.0.1', 'localhost']\n");
            std::fs::write(&settings, text)
                .map_err(|e| BenchError::io(format!("writing {}", settings.display()), e))?;
            let python = venv.program("python");
            run(&python, &["manage.py", "migrate", "--noinput"], Some(dir)).await?;
            run(
                &python,
                &["manage.py", "shell", "-c", DJANGO_SEED],
                Some(dir),
            )
            .await?;
        }
        App::Trac => {
            let admin = venv.program("trac-admin");
            run(
                &admin,
                &[&path, "initenv", "Bench project", "sqlite:db/trac.db"],
                None,
            )
            .await?;
            for (user, permission) in TRAC_PERMISSIONS {
                run(
                    &admin,
                    &[&path, "permission", "add", user, permission],
                    None,
                )
                .await?;
            }
            run(&venv.program("python"), &["-c", TRAC_SEED, &path], None).await?;
        }
    }
    Ok(())
}

/// A free TCP port on 127.0.0.1.
fn free_port() -> Result<u16, BenchError> {
    std::net::TcpListener::bind(("127.0.0.1", 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| BenchError::io("finding a free port", e))
}

/// Copies the seeded original `from` into `to` and serves it on a free port; answers once the server
/// answers HTTP.
///
/// Errors: when the copy or the server's start fails, or it does not answer within 60 s.
pub async fn start(app: App, venv: &Venv, from: &Path, to: &Path) -> Result<Instance, BenchError> {
    // `cp -a`: the copy keeps the original's modes (Trac checks its environment's files).
    run(
        Path::new("cp"),
        &["-a", &from.display().to_string(), &to.display().to_string()],
        None,
    )
    .await?;
    let port = free_port()?;
    let addr = format!("127.0.0.1:{port}");
    let python = venv.program("python");
    let mut command = match app {
        App::Django => {
            let mut c = Command::new(&python);
            c.args(["manage.py", "runserver", &addr, "--noreload"])
                .current_dir(to);
            c
        }
        App::Trac => {
            let mut c = Command::new(venv.program("tracd"));
            c.args(["--hostname", "127.0.0.1", "--port", &port.to_string(), "-s"])
                .arg(to);
            c
        }
    };
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| BenchError::io(format!("starting {}", app.label()), e))?;
    let instance = Instance {
        app,
        base: format!("http://{addr}"),
        dir: to.to_path_buf(),
        python,
        child,
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while tokio::net::TcpStream::connect(&addr).await.is_err() {
        if Instant::now() > deadline {
            return Err(BenchError::Timeout(format!(
                "{} did not listen on {addr} within 60 s",
                app.label()
            )));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    Ok(instance)
}

/// Asks `instance` for each of `paths` once over plain HTTP (following one redirect), so that no tool pays
/// the application's first-request start-up (Trac compiles a page's templates when it first serves it;
/// Django imports its admin at its first request): the same for all three tools, and not what a tool
/// costs. A failure only leaves that page cold.
pub async fn warm(instance: &Instance, paths: &[&str]) {
    let addr = instance.base.trim_start_matches("http://").to_owned();
    for path in paths {
        let mut path = (*path).to_owned();
        for _ in 0..2 {
            match get(&addr, &path).await {
                Some(Some(next)) => path = next,
                _ => break,
            }
        }
    }
}

/// One `GET path` to `addr`, read to its end: `Some(Some(location))` for a redirect within the site,
/// `Some(None)` for any other answer, `None` when it failed.
async fn get(addr: &str, path: &str) -> Option<Option<String>> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.ok()?;
    let request = format!("GET {path} HTTP/1.0\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut answer))
        .await
        .ok()?
        .ok()?;
    let head = String::from_utf8_lossy(&answer);
    let head = head.split("\r\n\r\n").next().unwrap_or_default();
    let redirect = head
        .lines()
        .next()
        .is_some_and(|status| status.split(' ').nth(1).is_some_and(|c| c.starts_with('3')));
    if !redirect {
        return Some(None);
    }
    let origin = format!("http://{addr}");
    Some(
        head.lines()
            .find_map(|l| {
                l.strip_prefix("Location: ")
                    .or_else(|| l.strip_prefix("location: "))
            })
            .map(|l| l.trim().trim_start_matches(origin.as_str()).to_owned())
            .filter(|l| l.starts_with('/')),
    )
}

impl Instance {
    /// The URL of `path` (which starts with `/`).
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Runs a check: `code` is Python that sets `ok` (a bool) and may set `why` (a string), run by the
    /// application's Python against this copy's database (Django: inside `manage.py shell`, its ORM
    /// set up; Trac: `env` is the environment). Answers `Ok(())` or the reason it failed.
    pub async fn check(&self, code: &str) -> Result<(), String> {
        let wrapped = match self.app {
            App::Django => format!(
                "from django.contrib.auth.models import User, Group, Permission\n\
                 from django.contrib.sessions.models import Session\n\
                 why = ''\n{code}\nprint('PASS' if ok else 'FAIL ' + str(why))\n"
            ),
            App::Trac => format!(
                "import sys\nfrom trac.env import Environment\nenv = Environment(sys.argv[1])\n\
                 why = ''\n{code}\nprint('PASS' if ok else 'FAIL ' + str(why))\n"
            ),
        };
        let dir = self.dir.display().to_string();
        let out = match self.app {
            App::Django => {
                run(
                    &self.python,
                    &["manage.py", "shell", "-c", &wrapped],
                    Some(&self.dir),
                )
                .await
            }
            App::Trac => run(&self.python, &["-c", &wrapped, &dir], None).await,
        }
        .map_err(|e| format!("the check did not run: {e}"))?;
        let last = out.lines().last().unwrap_or_default().trim().to_string();
        match last.strip_prefix("FAIL") {
            None if last == "PASS" => Ok(()),
            Some(why) => Err(why.trim().to_string()),
            None => Err(format!("the check printed {last:?}")),
        }
    }

    /// Stops the server.
    pub async fn stop(mut self) {
        let _ = self.child.kill().await;
    }
}
