#!/bin/sh
# Turns the timeline page into C: the HTML page ($1) with its scripts (the other
# arguments, in order) in place of its <!--SCRIPT--> line; the text before the <!--DATA-->
# line becomes kobj_timeline_head, the text after it kobj_timeline_tail.
page=$1
shift
scripts=$(mktemp)
trap 'rm -f "$scripts"' EXIT
cat "$@" > "$scripts"
echo '/* Generated from core/pictures/timeline_page.html and its scripts by page_to_c.sh. */'
echo '#include "core/pictures/timeline_page.h"'
echo 'const char kobj_timeline_head[] ='
sed -e "/^<!--SCRIPT-->\$/{r $scripts" -e 'd;}' "$page" |
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$/\\n"/' \
    -e 's/^\t"<!--DATA-->\\n"$/;\nconst char kobj_timeline_tail[] =/'
echo ';'
