//! A secrets corpus: realistic tool outputs an agent prints (`env`, `.env`
//! files, cloud credentials, git remotes, `curl -v`, keys, CI logs), each
//! with the credentials in it. The credentials are made up in each
//! provider's published shape; none is real.

/// One output and the secrets it holds.
pub struct SecretOutput {
    /// The command that printed it.
    pub command: &'static str,
    /// The output.
    pub text: String,
    /// Every secret value in it, none of which may be stored, logged or
    /// shown.
    pub secrets: Vec<&'static str>,
}

pub const AWS_KEY: &str = "AKIA2E0A8F3B244C9986";
pub const AWS_SECRET: &str = "Lk3v9QpZ2mX8rT5wY1uB7nC4eH6jD0sF+aG2iK9o";
pub const GITHUB: &str = "ghp_R8mK2vQ9xL4tN7pW1zY5bC3dF6gH0jS2aE4u";
pub const OPENAI: &str = "sk-proj-Z8nQ2wE5rT7yU1iO3pA6sD9fG4hJ0kL2mN5bV";
pub const ANTHROPIC: &str = "sk-ant-api03-Qw9Er8Ty7Ui6Op5As4Df3Gh2Jk1Lz0Xc-AbCdEf";
pub const DB_PASSWORD_URL: &str = "Tr0ub4dor-3x";
pub const SLACK: &str = "xoxb-2048-40961-Z7y6X5w4V3u2";
pub const STRIPE: &str = "sk_live_51HqK2eL9mN4pR7sT0vW3xY6z";
pub const NPM: &str = "npm_k2J9m4N7p1Q5r8S3t6U0v2W5x8Y1z4A7b0C3";
pub const DOTENV_PASSWORD: &str = "correct-horse-battery";
pub const SECRET_KEY_BASE: &str = "u8Yt5Rr2Ee9Ww6Qq3Aa0Ss7Dd4Ff1Gg8Hh5Jj2Kk";
pub const GITLAB: &str = "glpat-Xy9Zw8Vu7Ts6Rq5Po4Nm";
pub const JWT: &str = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTQyIiwiZXhwIjoxOTAwMDAwMDAwfQ.k3Jm9Xq2Lp7Rt4Wv8Yz1Ab5Cd0Ef6Gh3Ij2Kl9Mn4Op";
pub const PEM_BODY: &str = "MIIEowIBAAKCAQEAv3kQ9zX2pL8mN4rT7wY1uB6cE5hJ0dF3gK2aS9oI8qW4eR7t";
pub const PYPI: &str = "pypi-AgEIcHlwaS5vcmcCJDhmN2E5YjYwLTNjMWQtNGU1Zi04YTdiLTljMGQxZTJmM2E0YgACKlszLCJhYmMiXQAABiBzZWNyZXQ";
pub const GOOGLE: &str = "AIzaSyB9xQ2mK7pL4nR8tW1vY5zC3dF6gH0jS2a";
pub const COMPOSE_PASSWORD: &str = "s3cr3t-Pg-pass";
pub const K8S_PASSWORD: &str = "c2VjcmV0LXBhc3N3b3JkLTEyMw==";
pub const SQL_PASSWORD: &str = "Pa55w0rd!2024";
pub const SPRING_PASSWORD: &str = "Spr1ngDbPw#77";
pub const SLACK_HOOK: &str = "T024BE7LD/B01ABCD2EFG/q9W8e7R6t5Y4u3I2o1P0";
pub const PRIVATE_NOTE: &str = "my passport number is X1234567";
pub const PROMPT_SECRET: &str = "hunter2-Prompt-9";

/// The corpus.
pub fn corpus() -> Vec<SecretOutput> {
    let ci_log = {
        let mut log = String::new();
        for i in 0..400 {
            log.push_str(&format!(
                "2026-11-20T10:{:02}:{:02}Z [INFO] worker-{} processed batch {i} in {} ms\n",
                i / 60 % 60,
                i % 60,
                i % 4,
                100 + i * 7 % 50
            ));
            if i == 120 {
                log.push_str(&format!(
                    "[INFO] cloning with https://x-access-token:{GITHUB}@github.com/acme/app.git\n"
                ));
            }
            if i == 250 {
                log.push_str(&format!("[WARN] connection string: Server=db;User Id=sa;Password={SQL_PASSWORD};Encrypt=true\n"));
                log.push_str(&format!("[INFO] note: <private>{PRIVATE_NOTE}</private>\n"));
            }
        }
        log.push_str("[ERROR] deploy failed: exit status 1\n");
        log
    };
    vec![
        SecretOutput {
            command: "env",
            text: format!(
                "SHELL=/bin/bash\nHOME=/home/dev\nPATH=/usr/local/bin:/usr/bin:/bin\n\
                 AWS_ACCESS_KEY_ID={AWS_KEY}\nAWS_SECRET_ACCESS_KEY={AWS_SECRET}\n\
                 GITHUB_TOKEN={GITHUB}\nOPENAI_API_KEY={OPENAI}\nANTHROPIC_API_KEY={ANTHROPIC}\n\
                 DATABASE_URL=postgres://app:{DB_PASSWORD_URL}@db.internal:5432/app\n\
                 SLACK_BOT_TOKEN={SLACK}\nSTRIPE_SECRET_KEY={STRIPE}\nNPM_TOKEN={NPM}\n\
                 LANG=en_US.UTF-8\nTERM=xterm-256color\n"
            ),
            secrets: vec![
                AWS_KEY,
                AWS_SECRET,
                GITHUB,
                OPENAI,
                ANTHROPIC,
                DB_PASSWORD_URL,
                SLACK,
                STRIPE,
                NPM,
            ],
        },
        SecretOutput {
            command: "cat .env",
            text: format!(
                "# local settings\nAPP_ENV=development\nDB_HOST=localhost\nDB_PASSWORD={DOTENV_PASSWORD}\n\
                 SECRET_KEY_BASE={SECRET_KEY_BASE}\nJWT_SECRET=\"{SECRET_KEY_BASE}x\"\nPORT=4000\n"
            ),
            secrets: vec![DOTENV_PASSWORD, SECRET_KEY_BASE],
        },
        SecretOutput {
            command: "cat ~/.aws/credentials",
            text: format!(
                "[default]\naws_access_key_id = {AWS_KEY}\naws_secret_access_key = {AWS_SECRET}\nregion = eu-west-1\n"
            ),
            secrets: vec![AWS_KEY, AWS_SECRET],
        },
        SecretOutput {
            command: "git remote -v",
            text: format!(
                "origin\thttps://oauth2:{GITLAB}@gitlab.com/team/app.git (fetch)\n\
                 origin\thttps://oauth2:{GITLAB}@gitlab.com/team/app.git (push)\n"
            ),
            secrets: vec![GITLAB],
        },
        SecretOutput {
            command: "curl -v https://api.example.com/me",
            text: format!(
                "*   Trying 93.184.216.34:443...\n* Connected to api.example.com\n> GET /me HTTP/2\n\
                 > Host: api.example.com\n> Authorization: Bearer {JWT}\n> Accept: */*\n\
                 < HTTP/2 200\n< content-type: application/json\n{{\"id\": 42, \"name\": \"dev\"}}\n"
            ),
            secrets: vec![JWT],
        },
        SecretOutput {
            command: "cat ~/.ssh/id_rsa",
            text: format!(
                "-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n{PEM_BODY}\n-----END RSA PRIVATE KEY-----\n"
            ),
            secrets: vec![PEM_BODY],
        },
        SecretOutput {
            command: "cat ~/.npmrc ~/.pypirc",
            text: format!(
                "//registry.npmjs.org/:_authToken={NPM}\n[pypi]\nusername = __token__\npassword = {PYPI}\n"
            ),
            secrets: vec![NPM, PYPI],
        },
        SecretOutput {
            command: "cat app/settings.py",
            text: format!(
                "import os\n\nDEBUG = False\nSTRIPE_API_KEY = \"{STRIPE}\"\nGOOGLE_MAPS_KEY = \"{GOOGLE}\"\n\
                 SLACK_WEBHOOK = \"https://hooks.slack.com/services/{SLACK_HOOK}\"\n\
                 def password_ok(password):\n    return len(password) > 8\n"
            ),
            secrets: vec![STRIPE, GOOGLE, SLACK_HOOK],
        },
        SecretOutput {
            command: "cat docker-compose.yml",
            text: format!(
                "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n\
                 \x20     POSTGRES_PASSWORD: {COMPOSE_PASSWORD}\n    ports:\n      - \"5432:5432\"\n"
            ),
            secrets: vec![COMPOSE_PASSWORD],
        },
        SecretOutput {
            command: "kubectl get secret db -o yaml",
            text: format!(
                "apiVersion: v1\ndata:\n  password: {K8S_PASSWORD}\n  username: YXBw\nkind: Secret\n\
                 metadata:\n  name: db\ntype: Opaque\n"
            ),
            secrets: vec![K8S_PASSWORD],
        },
        SecretOutput {
            command: "cat src/main/resources/application.properties",
            text: format!(
                "spring.datasource.url=jdbc:postgresql://localhost:5432/app\n\
                 spring.datasource.username=app\nspring.datasource.password={SPRING_PASSWORD}\n\
                 server.port=8080\n"
            ),
            secrets: vec![SPRING_PASSWORD],
        },
        SecretOutput {
            command: "./deploy.sh",
            text: ci_log,
            secrets: vec![GITHUB, SQL_PASSWORD, PRIVATE_NOTE],
        },
    ]
}
