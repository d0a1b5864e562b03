/* What docker-run-init's two modes share: run_init.c (a target under it, one run) and
 * agent_serve.c (a warm container's agent, run after run): the reset after a run. */
#ifndef SBX_DOCKER_RUN_INIT_H
#define SBX_DOCKER_RUN_INIT_H

/* The prefix of the helper's own failure lines, which the executor turns into XX. */
#define SBX_RUN_INIT_NAME "sbx-docker-run-init"

/* The helper's own failure: the exit status the executor reads as XX (result.cpp). */
enum { kHelperFailed = 125 };

/* Default dispositions for every signal and an empty mask: how a shell starts a program. */
void reset_signals(void);
/* kill(-1, SIGKILL) and reap until no process of the run is left: 1; 0 when one this user
 * cannot kill (a set-uid program's) still runs after 5 s. */
int kill_the_rest(void);
/* Empties the folder at `path`, staying on its device (a mount in it is not the run's). */
void empty_scratch(const char *path);
/* The agent's loop; returns the helper's exit status. */
int serve(const char *socket_path);

#endif
