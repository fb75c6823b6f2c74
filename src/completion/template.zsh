#compdef fcast
# zsh completion for fcast, generated from its command tree by `fcast completion zsh`.
# Save it on your fpath:  fcast completion zsh > "${fpath[1]}/_fcast"   (then start a new shell)
# or, after compinit in ~/.zshrc:  source <(fcast completion zsh)

__fcast_spec() {
  __fcast_commands=() __fcast_command_names=() __fcast_options=() __fcast_value_options=() __fcast_option_values=() __fcast_args=()
  case $1 in
    # @command-table@
  esac
}

__fcast_values() {
  case $1 in
    (symbols)
      # A local cache, refreshed in the background at most once a day: TAB never waits for the network.
      __fcast_reply+=(${(f)"$($__fcast_program __complete-symbols 2>/dev/null)"})
      ;;
    # @value-lists@
  esac
}

__fcast_option_words() {
  local pair
  for pair in $__fcast_option_values $root_option_values; do
    if [[ ${pair%%=*} == $1 ]]; then
      __fcast_values ${pair#*=}
      return
    fi
  done
}

__fcast_argument_words() {
  integer count=${#__fcast_args}
  local source
  if (( $1 < count )); then
    source=${__fcast_args[$1 + 1]}
  elif (( count > 0 )) && [[ ${__fcast_args[count]} == *... ]]; then
    source=${__fcast_args[count]}
  else
    return
  fi
  source=${source%...}
  [[ $source == - ]] || __fcast_values $source
}

# Fills __fcast_reply with 'value:description' candidates for the word at CURRENT, and
# __fcast_prefix with what precedes the value in that word (`--tf=`).
__fcast_candidates() {
  local __fcast_program=${words[1]} cur=${words[CURRENT]} cmdpath= value_of= ended= word
  local -a __fcast_commands __fcast_command_names __fcast_options __fcast_value_options __fcast_option_values __fcast_args
  local -a root_options root_value_options root_option_values
  integer position=0 i=2
  __fcast_reply=()
  __fcast_prefix=
  __fcast_spec ''
  root_options=("${__fcast_options[@]}")
  root_value_options=("${__fcast_value_options[@]}")
  root_option_values=("${__fcast_option_values[@]}")
  while (( i < CURRENT )); do
    word=${words[i]}
    if [[ -z $ended && $word == -?* ]]; then
      if [[ $word == -- ]]; then
        ended=1
      elif (( ${__fcast_value_options[(Ie)$word]} || ${root_value_options[(Ie)$word]} )); then
        (( i += 1 ))
        if (( i == CURRENT )); then
          value_of=$word
          break
        fi
      fi
    elif (( position == 0 && ${__fcast_command_names[(Ie)$word]} )); then
      cmdpath=${cmdpath:+$cmdpath }$word
      __fcast_spec $cmdpath
    else
      (( position += 1 ))
    fi
    (( i += 1 ))
  done
  if [[ -z $value_of && -z $ended && $cur == -?*=* ]]; then
    value_of=${cur%%=*}
    __fcast_prefix=$value_of=
  fi
  if [[ -n $value_of ]]; then
    __fcast_option_words $value_of
  elif [[ -z $ended && $cur == -* ]]; then
    __fcast_reply=("${__fcast_options[@]}")
    [[ -n $cmdpath ]] && __fcast_reply+=("${root_options[@]}")
  else
    (( position == 0 )) && __fcast_reply=("${__fcast_commands[@]}")
    __fcast_argument_words $position
  fi
  return 0
}

_fcast() {
  local -a __fcast_reply
  local __fcast_prefix
  __fcast_candidates
  [[ -n $__fcast_prefix ]] && compset -P '*='
  # Any case matches (`demo btc` offers BTC/USD); the word is replaced by the candidate as written.
  (( ${#__fcast_reply} )) && _describe -t fcast 'fcast' __fcast_reply -M 'm:{a-zA-Z}={A-Za-z}'
}

if [[ $funcstack[1] == _fcast ]]; then
  _fcast "$@"
else
  compdef _fcast fcast
fi
