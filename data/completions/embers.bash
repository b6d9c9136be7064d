# SPDX-License-Identifier: GPL-3.0-or-later
# bash completion for embers

_embers()
{
  local cur prev words cword
  _init_completion -s 2>/dev/null || {
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
  }

  local options='--diff --top --top= --format= --export= --sample-type= --timeout=
                 --palette= --diff-mode= --diff-width= --server= --version --help'

  case $cur in
    --format=*)
      COMPREPLY=($(compgen -W 'table tsv' -- "${cur#*=}"))
      return ;;
    --palette=*)
      COMPREPLY=($(compgen -W 'red-blue red-green' -- "${cur#*=}"))
      return ;;
    --diff-mode=*)
      COMPREPLY=($(compgen -W 'share absolute' -- "${cur#*=}"))
      return ;;
    --diff-width=*)
      COMPREPLY=($(compgen -W 'both comparison' -- "${cur#*=}"))
      return ;;
    --export=*)
      local IFS=$'\n'
      COMPREPLY=($(compgen -f -- "${cur#*=}"))
      compopt -o filenames 2>/dev/null
      return ;;
    --server=*|--top=*|--sample-type=*|--timeout=*)
      return ;;
    -*)
      COMPREPLY=($(compgen -W "$options" -- "$cur"))
      [[ ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
      return ;;
  esac

  # Profiles and folders of profiles
  local IFS=$'\n'
  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen -d -- "$cur")
             $(compgen -f -X '!*.@(pb.gz|pb|pprof|folded|collapsed|json|json.gz|cpuprofile|jfr|txt|perf|gz)' -- "$cur"))
}

complete -F _embers embers
