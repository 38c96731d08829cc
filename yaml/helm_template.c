/*
 * helm_template.c - recognising a Helm chart template (helm_template.h).
 */
#include "helm_template.h"

#include <stdio.h>
#include <string.h>

/* the words a Go template action of a chart starts with */
static const char *const words[] = {
	"include", "template", "if", "range", "with", "define", "end", "else",
	"toYaml", "tpl", "required", "default",
};

/* Whether the text after "{{" (s) opens a Helm action. */
static bool opens_action(const char *s)
{
	if (*s == '-')
		s++;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '.')
		return true;
	for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
		size_t n = strlen(words[i]);
		if (!strncmp(s, words[i], n) &&
		    (s[n] == ' ' || s[n] == '\t' || s[n] == '}' || s[n] == '-'))
			return true;
	}
	return false;
}

bool yaml_helm_action(const char *path, int *line, int *col)
{
	if (!strcmp(path, "-"))
		return false;   /* stdin is read once, by the parser */
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char buf[4096];
	bool found = false;
	/* a line longer than buf is read in pieces: an action cut between two
	 * pieces is missed, a template having many more */
	for (int ln = 1; !found && fgets(buf, sizeof buf, f); ) {
		for (const char *p = strstr(buf, "{{"); p; p = strstr(p + 2, "{{"))
			if (opens_action(p + 2)) {
				*line = ln;
				*col = (int)(p - buf) + 1;
				found = true;
				break;
			}
		ln += strchr(buf, '\n') != NULL;
	}
	fclose(f);
	return found;
}
